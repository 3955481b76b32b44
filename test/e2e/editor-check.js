'use strict';
/* global document -- the page.evaluate() callbacks below run in the browser page, not in Node */
/**
 * Editor check: starts `n8n start` with the e2e user folder, creates the owner, checks that the node
 * types served to the editor contain our node (and its Tool variant) and that its icon is an SVG, then
 * drives Debian's chromium with playwright-core (from the cache folder) through the editor and saves
 * screenshots:
 *   node-resources.png   the node's Resource list open
 *   node-operations.png  the Operation list open (resource Person)
 *   person-create.png    the Person > Create form
 *   person-create-map-automatically.png   Person > Create with Mapping Mode "Map Automatically"
 *   credential-form.png  the credential form of "Integration Service API"
 *   picker-search.png    Note > Create, Person's list open and searching (picker-editor-check.js)
 *   note-create.png      Note > Create with a person picked and the Body typed (picker-editor-check.js)
 *   trigger-events.png   the trigger's Event Names list open (trigger-editor-check.js)
 *
 * Used by run-e2e.js; can also run alone against a kept user folder:
 *   node test/e2e/editor-check.js <userFolder>
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const L = require('./lib');
const { credentialTestChecks } = require('./app-checks');
const { triggerEventsCheck } = require('./trigger-editor-check');
const { pickerChecks } = require('./picker-editor-check');
const { NODE_DISPLAY_NAME, openNodeActions } = require('./editor-steps');

const CREDENTIAL_DISPLAY_NAME = 'Integration Service API';

/** GET url; a refused or reset connection is tried once more (n8n on a loaded machine, as app-checks.js). */
async function getOnceMore(url, cookie) {
	try {
		return await L.httpRequest(url, { headers: { cookie } }, 30000);
	} catch {
		await L.sleep(2000);
		return L.httpRequest(url, { headers: { cookie } }, 60000);
	}
}

async function apiChecks({ base, check }) {
	// Owner setup returns the session cookie (or, in a re-used user folder, signing in does).
	const session = await L.ownerSession(base);
	const { cookie } = session;
	check(
		'editor',
		session.status === 200 && /n8n-auth=/.test(cookie),
		`${session.how} -> ${session.status}${cookie ? ' (session cookie set)' : ' (no cookie)'}`,
	);

	let res = await getOnceMore(`${base}/types/nodes.json`, cookie);
	const types = res.status === 200 ? await res.json() : [];
	const ours = types.filter((t) => String(t.name).startsWith(`${L.PACKAGE_NAME}.`));
	const main = ours.find((t) => t.name === L.NODE_TYPE);
	const tool = ours.find((t) => t.name === `${L.NODE_TYPE}Tool`);
	check('editor', !!main, `/types/nodes.json (${types.length} types) contains ${L.NODE_TYPE}`);
	check('editor', !!tool, `/types/nodes.json contains ${L.NODE_TYPE}Tool (usableAsTool)`);

	res = await getOnceMore(`${base}/types/credentials.json`, cookie);
	const creds = res.status === 200 ? await res.json() : [];
	// Findable: the editor's node search matches displayName and codex.alias (its search keys), so the
	// aliases must reach the editor for "crm" and "mortgage" to find the node.
	for (const term of ['crm', 'mortgage']) {
		const alias = (main?.codex?.alias ?? []).find((entry) => entry.toLowerCase().includes(term));
		check(
			'editor',
			alias !== undefined,
			`/types/nodes.json gives the node the search alias "${alias ?? term}" (codex ${JSON.stringify(main?.codex?.categories)})`,
		);
	}
	check(
		'editor',
		creds.some((c) => c.name === L.CREDENTIAL_TYPE),
		`/types/credentials.json contains ${L.CREDENTIAL_TYPE}`,
	);
	// What the editor needs to offer it to the HTTP Request node as a Predefined Credential Type: a generic
	// authenticate (a function is dropped on the way to the editor), naming no secret.
	const ourCredential = creds.find((c) => c.name === L.CREDENTIAL_TYPE);
	check(
		'editor',
		ourCredential?.authenticate?.type === 'generic' &&
			!/secret|token"?\s*:/i.test(
				JSON.stringify(ourCredential.authenticate.properties).replace(/sessionToken/g, ''),
			),
		`the editor gets ${L.CREDENTIAL_TYPE}'s generic authenticate (${JSON.stringify(ourCredential?.authenticate)}), so the HTTP Request node can use it`,
	);

	if (main) {
		let iconUrl = main.iconUrl;
		if (iconUrl && typeof iconUrl === 'object')
			iconUrl = iconUrl.light || Object.values(iconUrl)[0];
		if (!iconUrl) {
			check(
				'editor',
				false,
				`node description has an iconUrl (icon: ${JSON.stringify(main.icon)})`,
			);
		} else {
			const url = new URL(iconUrl, `${base}/`).href;
			res = await L.httpRequest(url, { headers: { cookie } });
			const body = await res.text();
			const type = res.headers.get('content-type') || '';
			check(
				'editor',
				res.status === 200 &&
					(/svg/.test(type) || /<svg[\s>]/.test(body)) &&
					/<svg[\s>]/.test(body),
				`icon ${iconUrl} -> ${res.status} ${type} (${body.length} bytes, SVG)`,
			);
		}
	}
	return { cookie, main };
}

function loadPlaywright(inst) {
	// playwright-core comes from the n8n install under test, found at run time.
	return require(inst.playwrightCore);
}

/** The editor's first load on a loaded 2-core machine (its bundle is large): well past 20 s at times. */
const PAGE_LOAD_MS = 90000;

/** Window height for the resource list's screenshot: tall enough for every resource at once. */
const TALL_VIEWPORT = 1500;
const UNCAPPED_DROPDOWN =
	'.el-select-dropdown__wrap, .el-select-dropdown .el-scrollbar__wrap { max-height: none !important; }';

/** The text of the open dropdown's entries that lie wholly inside the window. */
function optionsInView(page) {
	return page.evaluate(() =>
		[...document.querySelectorAll('.el-select-dropdown__item, [role="option"]')]
			.filter((el) => {
				const r = el.getBoundingClientRect();
				return r.height > 0 && r.top >= 0 && r.bottom <= document.documentElement.clientHeight;
			})
			.map((el) => el.innerText.split('\n')[0].trim()),
	);
}

async function uiChecks({ inst, base, sb, check, screenshotsDir, main }) {
	const { chromium } = loadPlaywright(inst);
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-chromium-'));
	fs.mkdirSync(screenshotsDir, { recursive: true });
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: inst.chromium,
		headless: true,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
		viewport: { width: 1440, height: 1000 },
		deviceScaleFactor: 1,
	});
	const page = context.pages()[0] || (await context.newPage());
	page.setDefaultTimeout(20000);
	const shot = async (name, what) => {
		const file = path.join(screenshotsDir, name);
		await page.waitForTimeout(400); // let dropdown animations settle
		await page.screenshot({ path: file });
		check(
			'editor',
			fs.statSync(file).size > 5000,
			`screenshot ${path.relative(L.REPO, file)} (${what})`,
		);
	};
	const step = async (what, fn) => {
		try {
			await fn();
			return true;
		} catch (e) {
			const file = path.join(os.tmpdir(), `n8n-e2e-failure-${what.replace(/\W+/g, '-')}.png`);
			await page.screenshot({ path: file }).catch(() => {});
			// The visible data-test-id elements, to adapt the selectors when n8n's editor changes.
			const dom = await page
				.evaluate(() =>
					[...document.querySelectorAll('[data-test-id]')]
						.filter((e) => e.offsetParent)
						.map(
							(e) =>
								`${e.getAttribute('data-test-id')} :: ${(e.innerText || '').slice(0, 50).replace(/\n/g, ' ')}`,
						)
						.join('\n'),
				)
				.catch(() => '');
			fs.writeFileSync(file.replace(/\.png$/, '.txt'), dom);
			check(
				'editor',
				false,
				`${what}: ${String(e.message).split('\n')[0]} (page screenshot: ${file})`,
			);
			return false;
		}
	};
	try {
		// Sign in through the form.
		let ok = await step('sign in', async () => {
			await page.goto(`${base}/signin`, { waitUntil: 'domcontentloaded', timeout: PAGE_LOAD_MS });
			const email = page
				.locator('input[name="emailOrLdapLoginId"], input[name="email"], input[type="email"]')
				.first();
			await email.waitFor();
			await email.fill(L.OWNER.email);
			await page
				.locator('input[name="password"], input[type="password"]')
				.first()
				.fill(L.OWNER.password);
			await page
				.locator('[data-test-id="form-submit-button"], button[type="submit"]')
				.first()
				.click();
			await page.waitForURL((u) => !/\/signin/.test(u.pathname), { timeout: 30000 });
		});
		check('editor', ok, 'signed in through the sign-in form');
		if (!ok) return;
		await dismissPopups(page);

		// New workflow, node creator, our node.
		ok = await step('open a new workflow and add the node', async () => {
			await openNodeActions(page, base, dismissPopups, PAGE_LOAD_MS);
			const actions = page.locator(
				'[data-test-id="node-creator-action-item"], [data-test-id="item-iterator-item"]',
			);
			// Nodes with resources show their actions ("Create a person", ...) in a panel; pick Person > Create
			// when it is listed, else the first action.
			const personCreate = actions.filter({ hasText: /create an? person|person.*create/i }).first();
			const action = (await personCreate.count())
				? personCreate
				: actions.filter({ hasNotText: /^\s*On a /i }).last();
			// The action list can still re-render under a loaded machine and swallow a click: click again.
			for (let attempt = 1; ; attempt++) {
				await action.click().catch(() => {});
				try {
					await page
						.locator('[data-test-id="ndv"], .ndv-wrapper, [data-test-id="ndv-parameters"]')
						.first()
						.waitFor({ timeout: 10000 });
					break;
				} catch (e) {
					if (attempt >= 3) throw e;
				}
			}
			await page.locator('[data-test-id="parameter-input-resource"]').first().waitFor();
		});
		check(
			'editor',
			ok,
			`added "${NODE_DISPLAY_NAME}" from the node creator; its parameters are open`,
		);
		if (!ok) return;

		const visibleOptions = () =>
			page.locator('.el-select-dropdown__item:visible, [role="option"]:visible');
		const closeDropdown = async () => {
			// Escape closes an open select list only (the node's panel stays open).
			if (await visibleOptions().count()) await page.keyboard.press('Escape');
			await visibleOptions()
				.first()
				.waitFor({ state: 'detached', timeout: 3000 })
				.catch(() => {});
		};
		const openDropdown = async (param) => {
			await closeDropdown();
			const input = page.locator(`[data-test-id="parameter-input-${param}"]`).first();
			await input.click();
			try {
				await visibleOptions().first().waitFor({ timeout: 3000 });
			} catch {
				await input.click(); // a click can land while a list is closing
				await visibleOptions().first().waitFor();
			}
		};
		const chooseOption = async (param, label) => {
			await openDropdown(param);
			await page
				.locator('.el-select-dropdown__item:visible, [role="option"]:visible', {
					hasText: new RegExp(`^\\s*${label}`),
				})
				.first()
				.click();
			await visibleOptions()
				.first()
				.waitFor({ state: 'detached', timeout: 3000 })
				.catch(() => {});
			await page.waitForTimeout(300);
		};

		const resourceNames =
			main && Array.isArray(main.properties)
				? (main.properties.find((p) => p.name === 'resource') || {}).options || []
				: [];
		ok = await step('resource list', async () => {
			// The whole list in one picture: a taller window, and the dropdown without its height cap.
			await page.setViewportSize({ width: 1440, height: TALL_VIEWPORT });
			const tall = await page.addStyleTag({ content: UNCAPPED_DROPDOWN });
			await openDropdown('resource');
			for (const o of resourceNames.slice(0, 3))
				await page
					.locator('.el-select-dropdown__item:visible, [role="option"]:visible', {
						hasText: o.name,
					})
					.first()
					.waitFor();
			// Element Plus scrolls the list to the selected option; show it from the top.
			await page.waitForTimeout(600);
			await page.evaluate(() =>
				document
					.querySelectorAll('.el-select-dropdown .el-scrollbar__wrap, .el-select-dropdown__wrap')
					.forEach((w) => w.scrollTo({ top: 0 })),
			);
			await shot(
				'node-resources.png',
				`resource list open: ${resourceNames.map((o) => o.name).join(', ')}`,
			);
			const inView = await optionsInView(page);
			const missing = resourceNames.map((o) => o.name).filter((n) => !inView.includes(n));
			check(
				'editor',
				resourceNames.length > 0 && missing.length === 0,
				`the screenshot shows all ${resourceNames.length} resources in the open list (${inView.length} entries in view${missing.length ? `; not in view: ${missing.join(', ')}` : ''})`,
			);
			await closeDropdown();
			await tall.evaluate((el) => el.remove());
			await page.setViewportSize({ width: 1440, height: 1000 });
		});
		ok =
			ok &&
			(await step('Custom API Call operation list', async () => {
				await chooseOption('resource', 'Custom API Call');
				await openDropdown('operation');
				const names = await visibleOptions().allInnerTexts();
				const first = names.map((text) => text.split('\n')[0].trim());
				check(
					'editor',
					first.length === 1 && first[0] === 'Custom API Call',
					`Custom API Call's operation list: ${first.join(', ')} (one entry, no second one from n8n)`,
				);
			}));
		ok =
			ok &&
			(await step('operation list', async () => {
				await chooseOption('resource', 'Person');
				await openDropdown('operation');
				await page
					.locator('.el-select-dropdown__item:visible, [role="option"]:visible', {
						hasText: 'Create',
					})
					.first()
					.waitFor();
				await shot('node-operations.png', 'operation list of Person open');
			}));
		ok =
			ok &&
			(await step('person create form', async () => {
				await chooseOption('operation', 'Create');
				await page
					.locator(
						'[data-test-id="parameter-input-firstName"], [data-test-id="parameter-item"]:has-text("First Name")',
					)
					.first()
					.waitFor();
				for (const [name, value] of [
					['firstName', 'Ada'],
					['lastName', 'Lovelace'],
				]) {
					const field = page
						.locator(
							`[data-test-id="parameter-input-${name}"] input, [data-test-id="parameter-input-${name}"] textarea`,
						)
						.first();
					if (await field.count()) await field.fill(value);
				}
				await page.evaluate(() => document.activeElement && document.activeElement.blur());
				await page.mouse.move(5, 5);
				await shot('person-create.png', 'Person > Create form');
			}));
		ok =
			ok &&
			(await step('map automatically', async () => {
				// What a user sees on choosing Map Automatically: the hint naming the wire fields, and no form.
				await chooseOption('mappingMode', 'Map Automatically');
				await page
					.locator('[data-test-id="parameter-item"], .notice, [role="alert"]', {
						hasText: 'Input fields named as the service names them',
					})
					.first()
					.waitFor();
				await page
					.locator('[data-test-id="parameter-input-firstName"]')
					.first()
					.waitFor({ state: 'detached', timeout: 5000 });
				await page.mouse.move(5, 5);
				await shot(
					'person-create-map-automatically.png',
					'Person > Create with Map Automatically: the field hint shown, the form hidden',
				);
				await chooseOption('mappingMode', 'Map Each Field Below');
				await page.locator('[data-test-id="parameter-input-firstName"]').first().waitFor();
			}));
		await step('credential form', async () => {
			const credSelect = page.locator('[data-test-id="node-credentials-select"]').first();
			await credSelect.waitFor();
			await credSelect.click();
			const createNew = page
				.locator('[data-test-id="node-credentials-select-item-new"]:visible')
				.first();
			try {
				await createNew.waitFor({ timeout: 5000 });
				await createNew.click();
			} catch {
				await page
					.locator('.el-select-dropdown__item:visible, button:visible', {
						hasText: /create new credential|set up credential/i,
					})
					.first()
					.click();
			}
			const modal = page
				.locator('[data-test-id="credential-edit-dialog"], [data-test-id="editCredential-modal"]')
				.first();
			await modal.waitFor();
			await modal.locator(`text=${CREDENTIAL_DISPLAY_NAME}`).first().waitFor();
			await page.locator('[data-test-id="parameter-input-crmUrl"]').first().waitFor();
			await page.waitForTimeout(800);
			await shot('credential-form.png', `credential form of "${CREDENTIAL_DISPLAY_NAME}"`);
		});
		// Pickers in workflows of their own, saved and run (then the trigger's, last).
		await pickerChecks({
			page,
			base,
			sb,
			step,
			shot,
			check,
			dismissPopups,
			pageLoadMs: PAGE_LOAD_MS,
		});
		// Last: it leaves the workflow above for a new one.
		await triggerEventsCheck({
			page,
			base,
			step,
			shot,
			check,
			dismissPopups,
			pageLoadMs: PAGE_LOAD_MS,
		});
	} finally {
		await context.close().catch(() => {});
		fs.rmSync(userDataDir, { recursive: true, force: true });
	}
}

/** Closes the notices n8n may show on a first visit (they would cover the canvas). */
async function dismissPopups(page) {
	await page.waitForTimeout(1000);
	for (const sel of [
		'[data-test-id="personalization-form"] button:has-text("Get started")',
		'.el-dialog__headerbtn',
		'[data-test-id="close-button"]',
		'button:has-text("Skip")',
		'button:has-text("Dismiss")',
	]) {
		const loc = page.locator(sel);
		const n = await loc.count().catch(() => 0);
		for (let i = 0; i < n; i++)
			await loc
				.nth(i)
				.click({ timeout: 2000 })
				.catch(() => {});
	}
}

async function editorCheck({ inst, env, log, check, screenshotsDir, children, sb, credentials }) {
	const n8n = await L.startN8n({ inst, env, log, children, host: 'localhost' });
	try {
		const { cookie, main } = await apiChecks({ base: n8n.base, check, log });
		// n8n's credential test, as on every version of the matrix (app-checks.js).
		if (sb && credentials)
			await credentialTestChecks({ base: n8n.base, cookie, sb, check, credentials });
		await uiChecks({ inst, base: n8n.base, sb, cookie, check, log, screenshotsDir, main });
	} catch (e) {
		check('editor', false, `editor check: ${e.message}`);
		log(`n8n output (last lines):\n${n8n.output().slice(-3000)}`);
	} finally {
		await L.stop(n8n.child);
	}
}

module.exports = { editorCheck, apiChecks, uiChecks };

if (require.main === module) {
	const { paths } = require('./install-n8n');
	const userFolder = process.argv[2];
	if (!userFolder) {
		console.error('usage: node test/e2e/editor-check.js <userFolder kept by run-e2e.js --keep>');
		process.exit(2);
	}
	const inst = paths();
	const children = [];
	const { log, check, summary } = L.createRun({ tag: 'editor', label: 'editor-check' });
	editorCheck({
		inst,
		env: L.n8nEnv(inst, userFolder),
		userFolder,
		log,
		check,
		screenshotsDir: process.env.E2E_SCREENSHOTS || path.join(L.REPO, 'docs', 'screenshots'),
		children,
	})
		.catch((e) => {
			console.error(e);
			check('runner', false, e.message);
		})
		.then(summary);
}
