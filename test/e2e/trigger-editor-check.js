'use strict';
/* global document -- the page.evaluate() callbacks below run in the browser page, not in Node */
/**
 * The trigger in the real editor (part of editor-check.js): a new workflow, the Integration Service
 * Trigger added as its first step from the node creator, its Event Names list opened. A new trigger is
 * version 1.2: its events read "Person Created" (first, after Any Event), each with its wire name as the
 * hint, and the default selection shows as "Person Created". Saves docs/screenshots/trigger-events.png.
 */

const { newWorkflowSearch } = require('./editor-steps');

const TRIGGER_DISPLAY_NAME = 'Integration Service Trigger';
/** The list as the editor should show it, from the top. */
const FIRST_EVENTS = ['Any Event', 'Person Created', 'Person Updated', 'Person Deleted'];

/** Each entry of the open dropdown wholly inside the window: its name and its hint (the option's description). */
function entriesInView(page) {
	return page.evaluate(() =>
		[...document.querySelectorAll('.el-select-dropdown__item, [role="option"]')]
			.filter((el) => {
				const r = el.getBoundingClientRect();
				return r.height > 0 && r.top >= 0 && r.bottom <= document.documentElement.clientHeight;
			})
			.map((el) => {
				const [name, ...rest] = el.innerText.split('\n').map((line) => line.trim());
				return { name, hint: rest.filter(Boolean).join(' ') };
			}),
	);
}

/** Adds the trigger to a new workflow as its first step and waits for its parameters. */
async function addTrigger(page, base, dismissPopups, pageLoadMs) {
	// A full navigation away from the previous (unsaved) workflow: accept the browser's leave prompt.
	page.on('dialog', (dialog) => dialog.accept().catch(() => {}));
	const search = await newWorkflowSearch(page, base, dismissPopups, pageLoadMs);
	await search.fill(TRIGGER_DISPLAY_NAME);
	const items = page.locator(
		'[data-test-id="node-creator-node-item"], [data-test-id="node-creator-action-item"], [data-test-id="item-iterator-item"]',
	);
	const events = page.locator('[data-test-id="parameter-input-events"]').first();
	// The first-step panel may list the trigger itself or the app, whose panel then lists the trigger:
	// click the trigger's entry, else the app's, until the trigger's parameters show.
	for (let attempt = 1; ; attempt++) {
		await items.first().waitFor();
		await page.waitForTimeout(500);
		const own = items.filter({ hasText: new RegExp(`${TRIGGER_DISPLAY_NAME}|On .*event`, 'i') });
		await ((await own.count()) ? own : items.filter({ hasText: 'Integration Service' }))
			.first()
			.click()
			.catch(() => {});
		try {
			await events.waitFor({ timeout: 8000 });
			return events;
		} catch (e) {
			if (attempt >= 4) throw e;
		}
	}
}

/**
 * Runs inside editor-check.js's browser session; `step`, `shot` and `check` are its helpers. Returns
 * whether the check could be made.
 */
async function triggerEventsCheck({ page, base, step, shot, check, dismissPopups, pageLoadMs }) {
	let events;
	const added = await step('add the trigger', async () => {
		events = await addTrigger(page, base, dismissPopups, pageLoadMs);
	});
	check(
		'editor',
		added,
		`added "${TRIGGER_DISPLAY_NAME}" as the first step; its parameters are open`,
	);
	if (!added) return false;
	return await step('trigger event list', async () => {
		// The default selection, collapsed, shows by name.
		const selected = (await events.innerText()).replace(/\s+/g, ' ').trim();
		check(
			'editor',
			/Person Created/.test(selected) && !/peopleCreated/.test(selected),
			`the new trigger's Event Names shows its default as "Person Created" (shown: "${selected}")`,
		);
		await events.locator('input, .el-select__wrapper, .el-select').first().click();
		const personCreated = page
			.locator('.el-select-dropdown__item:visible, [role="option"]:visible', {
				hasText: /^\s*Person Created/,
			})
			.first();
		await personCreated.waitFor();
		await page.evaluate(() =>
			document
				.querySelectorAll('.el-select-dropdown .el-scrollbar__wrap, .el-select-dropdown__wrap')
				.forEach((w) => w.scrollTo({ top: 0 })),
		);
		await page.mouse.move(5, 5);
		await shot(
			'trigger-events.png',
			'the trigger\'s Event Names list open: "Person Created" first',
		);
		const inView = await entriesInView(page);
		const names = inView.map((entry) => entry.name);
		check(
			'editor',
			FIRST_EVENTS.every((name, i) => names[i] === name),
			`the trigger's event list starts ${FIRST_EVENTS.join(', ')} (in view: ${names.slice(0, 8).join(', ')}, … ${names.length} entries)`,
		);
		const hint = inView.find((entry) => entry.name === 'Person Created')?.hint ?? '';
		check(
			'editor',
			hint.includes('peopleCreated'),
			`"Person Created" shows its wire name as the hint ("${hint}")`,
		);
		check(
			'editor',
			names.every((name) => !/^[a-z]+[A-Z]\w*(Created|Updated|Deleted)$/.test(name)),
			'no entry of the list reads as a wire name',
		);
		await page.keyboard.press('Escape');
	});
}

module.exports = { triggerEventsCheck };
