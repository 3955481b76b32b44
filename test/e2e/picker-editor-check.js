'use strict';
/* global document -- the page.evaluate() callbacks below run in the browser page, not in Node */
/**
 * The pickers in the real editor (part of editor-check.js), as a new user uses them. The sandbox is
 * reseeded with 2,000 people (the list search pages through them) and set back afterwards.
 *   Note › Create: type part of a seeded person's name into Person (From List), pick the person, type
 *     the Body, save, run with the editor's Execute button: the sandbox got one note with that
 *     person's ID and the typed body. Screenshots picker-search.png (the list open, searching) and
 *     note-create.png (the filled form).
 *   Task › Create: the same with Assigned User (a user picked from the list).
 *   List › Add People: a locator inside the repeatable People group and the Options collection
 *     (Timeout) render, are filled and run: the people are added by the picked IDs.
 * Each saved workflow holds the node at version 2 with the locators in "From List" mode.
 */
const L = require('./lib');
const { openNodeActions } = require('./editor-steps');

const CREDENTIAL_NAME = 'Integration Service sandbox';
const SEEDED_PEOPLE = 2000;
/** Within the first pages a search reads (5 of 100), so that a name typed finds it in one call. */
const PERSON_ID = 'p_321';
const API_HEADERS = {
	Authorization: 'Bearer sandbox-token',
	'X-Service-Credential-Id': 'cred-default',
};
/** A manual run on a loaded 2-core machine: n8n loads the node, then sends one request. */
const RUN_MS = 60000;

const visible = (page, selector, options) => page.locator(`${selector} >> visible=true`, options);

async function sandboxGet(sb, path) {
	const res = await L.httpRequest(`${sb.urls.crm}${path}`, { headers: API_HEADERS });
	if (res.status !== 200) throw new Error(`sandbox GET ${path} -> ${res.status}`);
	return res.json();
}

async function sandboxConfig(sb, body) {
	await L.httpRequest(`${sb.urls.crm}/__sandbox/config`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

/** A new workflow: a Manual Trigger, then our node's action whose entry matches `action`. */
async function addAction(page, base, dismissPopups, pageLoadMs, action) {
	await openNodeActions(page, base, dismissPopups, pageLoadMs);
	const entry = page
		.locator('[data-test-id="node-creator-action-item"], [data-test-id="item-iterator-item"]', {
			hasText: action,
		})
		.first();
	for (let attempt = 1; ; attempt++) {
		await entry.click().catch(() => {});
		try {
			await page.locator('[data-test-id="parameter-input-resource"]').first().waitFor({
				timeout: 10000,
			});
			return;
		} catch (e) {
			if (attempt >= 3) throw e;
		}
	}
}

/** The node's credential: the one pointing at the sandbox (three of the type are imported). */
async function chooseCredential(page) {
	const select = page.locator('[data-test-id="node-credentials-select"]').first();
	await select.waitFor();
	const exact = new RegExp(`^\\s*${CREDENTIAL_NAME}\\s*$`);
	const shown = await select
		.locator('input')
		.first()
		.inputValue()
		.catch(() => '');
	if (exact.test(shown)) return;
	await select.click();
	// The entries are in a popover outside the panel: found by their exact text.
	await visible(page, `text="${CREDENTIAL_NAME}"`).first().click();
	await page.waitForTimeout(300);
}

/**
 * Opens the locator `name` (inside `scope`), types `typed` into the list's search and waits for an
 * entry holding `entryText`; `beforePick` runs with the list open; then picks that entry.
 */
async function pickFromList(page, scope, name, typed, entryText, beforePick) {
	const locator = scope.locator(`[data-test-id="resource-locator-${name}"]`).first();
	await locator.waitFor();
	await locator.locator('[data-test-id="rlc-input"]').first().click();
	const search = visible(
		page,
		'[data-test-id="rlc-search"] input, input[data-test-id="rlc-search"]',
	);
	await search.first().waitFor();
	if (typed) await search.first().fill(typed);
	const entry = visible(page, '[data-test-id="rlc-item"]', { hasText: entryText }).first();
	await entry.waitFor({ timeout: 30000 });
	const entries = await visible(page, '[data-test-id="rlc-item"]').allInnerTexts();
	if (beforePick) await beforePick(entries);
	await entry.click();
	await page.waitForTimeout(300);
	const value = await locator
		.locator('[data-test-id="rlc-input"] input, input[data-test-id="rlc-input"]')
		.first()
		.inputValue()
		.catch(() => '');
	return { entries, shown: value };
}

async function fillText(page, name, value) {
	const field = page
		.locator(
			`[data-test-id="parameter-input-${name}"] textarea, [data-test-id="parameter-input-${name}"] input`,
		)
		.first();
	await field.fill(value);
	await page.evaluate(() => document.activeElement && document.activeElement.blur());
}

/** Closes the node's panel, saves the workflow, runs it; resolves the saved workflow's id. */
async function saveAndRun(page) {
	const back = page.locator('[data-test-id="back-to-canvas"], [data-test-id="ndv-close"]').first();
	if (await back.count()) await back.click().catch(() => {});
	else await page.keyboard.press('Escape');
	await page.waitForTimeout(500);
	const save = visible(page, '[data-test-id="workflow-save-button"]').first();
	if (await save.count()) await save.click().catch(() => {});
	else await page.keyboard.press('Control+s');
	await page.waitForURL((u) => /\/workflow\/(?!new)[^/]+/.test(u.pathname), { timeout: 20000 });
	const id = /\/workflow\/([^/?]+)/.exec(new URL(page.url()).pathname)[1];
	await visible(page, '[data-test-id="execute-workflow-button"]').first().click();
	return id;
}

/**
 * The sandbox's logged requests with `method` and `path` after the first `since`, once there is one;
 * when none comes, the writes that came instead (the check's message shows them).
 */
async function awaitRequest(sb, since, method, path) {
	const deadline = Date.now() + RUN_MS;
	for (;;) {
		const later = (await L.sandboxRequests(sb)).slice(since);
		const found = later.filter((q) => q.method === method && q.path === path);
		if (found.length) return found;
		if (Date.now() > deadline) return later.filter((q) => q.method !== 'GET');
		await L.sleep(1000);
	}
}

/**
 * The saved workflow's node of our type, as n8n stores it: read through the REST API in a session of
 * its own (a request from the page without the editor's browser-id header would end the page's).
 */
async function savedNode(base, id) {
	const { cookie } = await L.ownerSession(base);
	const res = await L.httpRequest(`${base}/rest/workflows/${id}`, { headers: { cookie } });
	const body = await res.json();
	const nodes = (body.data || body).nodes || [];
	return nodes.find((n) => n.type === L.NODE_TYPE);
}

const summary = (requests) =>
	requests.map((q) => `${q.method} ${q.path} ${JSON.stringify(q.body)}`).join('; ') || 'none';

/** Note › Create: a person picked by part of the name, the Body typed; the note sent with both. */
async function noteCreate(ctx) {
	const { page, base, sb, check, shot, open } = ctx;
	const person = await sandboxGet(sb, `/api/people/${PERSON_ID}`);
	const email = person.emails?.[0]?.value ?? '';
	// Part of the name, as a user types it: the first name and the start of the last.
	const typed = `${person.firstName} ${person.lastName.slice(0, 3)}`;
	const body = `Called ${person.firstName} about the showing (picker e2e)`;
	await open(/create a note/i);
	await chooseCredential(page);
	const { entries, shown } = await pickFromList(page, page, 'personId', typed, email, async () => {
		await page.mouse.move(5, 5);
		await shot('picker-search.png', `Note › Create: Person's list open, searching "${typed}"`);
	});
	check(
		'editor',
		entries.length > 0 &&
			entries.every((e) => e.toLowerCase().includes(person.firstName.toLowerCase())),
		`Person's list, searching "${typed}" over ${SEEDED_PEOPLE} people: ${entries.length} entries, each holding the name (${entries.slice(0, 3).join(' | ')})`,
	);
	check(
		'editor',
		shown.includes(person.firstName),
		`after the pick, Person shows "${shown}" (${PERSON_ID}, ${person.firstName} ${person.lastName})`,
	);
	await fillText(page, 'body', body);
	await page.mouse.move(5, 5);
	await shot('note-create.png', 'Note › Create with the person picked and the Body typed');
	const since = (await L.sandboxRequests(sb)).length;
	const id = await saveAndRun(page);
	const sent = await awaitRequest(sb, since, 'POST', '/api/notes');
	check(
		'editor',
		sent.length === 1 && sent[0].body?.personId === PERSON_ID && sent[0].body?.body === body,
		`the editor's Execute sent one note with ${PERSON_ID} and the typed body: ${summary(sent)}`,
	);
	const node = await savedNode(base, id);
	check(
		'editor',
		node?.typeVersion === 2 &&
			node.parameters.personId?.mode === 'list' &&
			node.parameters.personId?.value === PERSON_ID,
		`the saved workflow holds the node at version ${node?.typeVersion} with Person ${JSON.stringify(node?.parameters.personId)}`,
	);
}

/** Task › Create: Assigned User picked from the list by name; the task sent with that user's ID. */
async function taskAssignedUser(ctx) {
	const { page, sb, check, open } = ctx;
	const users = (await sandboxGet(sb, '/api/users')).users ?? [];
	const user = users[users.length - 1];
	const userName = `${user.firstName} ${user.lastName}`;
	await open(/create a task/i);
	await chooseCredential(page);
	await pickFromList(page, page, 'personId', PERSON_ID, PERSON_ID.replace('p_', ''));
	const { entries, shown } = await pickFromList(
		page,
		page,
		'assignedUserId',
		user.firstName,
		userName,
	);
	check(
		'editor',
		entries.some((e) => e.includes(userName)) && shown.includes(user.firstName),
		`Assigned User's list, searching "${user.firstName}": ${entries.join(' | ')}; picked "${shown}" (${user.id})`,
	);
	await fillText(page, 'name', 'Call back (picker e2e)');
	const since = (await L.sandboxRequests(sb)).length;
	await saveAndRun(page);
	const sent = await awaitRequest(sb, since, 'POST', '/api/tasks');
	check(
		'editor',
		sent.length === 1 &&
			String(sent[0].body?.assignedUserId) === String(user.id) &&
			sent[0].body?.personId === PERSON_ID,
		`the editor's Execute sent one task assigned to ${user.id} (${userName}): ${summary(sent)}`,
	);
}

/** List › Add People: a locator in the repeatable Person IDs group, and the Options collection. */
async function listAddPeople(ctx) {
	const { page, base, sb, check, open } = ctx;
	const person = await sandboxGet(sb, `/api/people/${PERSON_ID}`);
	await open(/add people to a list/i);
	await chooseCredential(page);
	const list = await pickFromList(page, page, 'listId', '', 'List 1');
	await visible(page, 'button, [role="button"]', { hasText: /^\s*Add Person ID/ })
		.first()
		.click();
	const group = page.locator('[data-test-id="parameter-item"]', { hasText: 'Person IDs' }).first();
	const inGroup = await pickFromList(
		page,
		group,
		'id',
		person.lastName,
		person.emails?.[0]?.value ?? PERSON_ID,
	);
	check(
		'editor',
		inGroup.shown.includes(person.firstName),
		`a locator inside the Person IDs group renders and picks: "${inGroup.shown}" (list "${list.shown}")`,
	);
	// The Options collection (the only collection of this form): its Add Option list, Timeout.
	await visible(
		page,
		'[data-test-id="collection-parameter-add-dropdown"], [data-test-id="collection-parameter-add"]',
	)
		.last()
		.click();
	await visible(
		page,
		'[data-test-id="collection-parameter-option"], [role="option"], .el-select-dropdown__item',
		{ hasText: /^\s*Timeout/ },
	)
		.first()
		.click();
	await fillText(page, 'timeout', '20');
	const since = (await L.sandboxRequests(sb)).length;
	const node = await savedNode(base, await saveAndRun(page));
	const { listId, personIds, options } = node?.parameters ?? {};
	check(
		'editor',
		listId?.mode === 'list' &&
			personIds?.entries?.[0]?.id?.mode === 'list' &&
			personIds.entries[0].id.value === PERSON_ID &&
			options?.timeout === 20,
		`saved: List ${JSON.stringify(listId)}, Person IDs ${JSON.stringify(personIds)}, Options ${JSON.stringify(options)}`,
	);
	const path = `/api/lists/${listId?.value}/people`;
	const sent = await awaitRequest(sb, since, 'POST', path);
	check(
		'editor',
		sent.length === 1 &&
			sent[0].path === path &&
			JSON.stringify(sent[0].body?.personIds) === JSON.stringify([PERSON_ID]),
		`the editor's Execute added ${PERSON_ID} to ${listId?.value}: ${summary(sent)}`,
	);
}

/**
 * Runs inside editor-check.js's browser session; `step`, `shot` and `check` are its helpers, `sb` the
 * sandbox the imported credential points at.
 */
async function pickerChecks({ page, base, sb, step, shot, check, dismissPopups, pageLoadMs }) {
	if (!sb) {
		check('editor', true, 'pickers: no sandbox given (a standalone editor check): not checked');
		return;
	}
	// A full navigation away from an unsaved workflow: accept the browser's leave prompt.
	page.on('dialog', (dialog) => dialog.accept().catch(() => {}));
	const ctx = {
		page,
		base,
		sb,
		check,
		shot,
		open: (action) => addAction(page, base, dismissPopups, pageLoadMs, action),
	};
	await sandboxConfig(sb, { people: SEEDED_PEOPLE });
	try {
		await step('note create with a picked person', () => noteCreate(ctx));
		await step('task with a picked assigned user', () => taskAssignedUser(ctx));
		await step('list add people: locator in a group, Options', () => listAddPeople(ctx));
	} finally {
		// Back to the seeded 25 people for the checks after this one.
		await L.sandboxReset(sb);
	}
}

module.exports = { pickerChecks };
