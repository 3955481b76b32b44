'use strict';
/**
 * Expectations (the EXPECTATIONS format of run-e2e.js) for one workflow per resource family of issue 30,
 * in test/e2e/fixtures/: what each node output and what the sandbox received, request by request.
 * Ids the sandbox gives created records follow its counters from a reset (note-1, list-1, ...).
 */

/** The first output item of every run of `node`, in order. */
function firstItems(runData, node) {
	return (runData[node] || []).map((run) => {
		const main = run.data && run.data.main && run.data.main[0];
		return main && main[0] ? main[0].json : undefined;
	});
}

/** Number of output items of the last run of `node`. */
function itemCount(runData, node) {
	const runs = runData[node] || [];
	const main = runs.length && runs[runs.length - 1].data && runs[runs.length - 1].data.main;
	return main && main[0] ? main[0].length : 0;
}

/** `checks`: [node, (json) => boolean, what]; every node ran once and its first item passes. */
function outputs(checks) {
	return (runData) => {
		const failed = [];
		for (const [node, ok, what] of checks) {
			const items = firstItems(runData, node);
			if (items.length !== 1 || !items[0] || !ok(items[0]))
				failed.push(`${node}: ${what} (got ${JSON.stringify(items).slice(0, 200)})`);
		}
		return [
			failed.length === 0,
			`each node's output: ${checks.map(([node, , what]) => `${node}: ${what}`).join('; ')}${failed.length ? ` -- FAILED: ${failed.join('; ')}` : ''}`,
		];
	};
}

/** Create, Get and Delete of one CRM activity record: its requests, exact create body and outputs. */
function createGetDelete(path, prefix, body) {
	const one = `/api/${path}/${prefix}-1`;
	return {
		requests: [
			['POST', 'crm', `/api/${path}`],
			['GET', 'crm', one],
			['DELETE', 'crm', one],
		],
		exactBodies: [['POST', 'crm', `/api/${path}`, body]],
	};
}

const NOTE = { personId: 'p_1', body: 'Called back, wants a showing', subject: 'Showing' };
const TASK = { personId: 'p_1', name: 'Call back about the offer', type: 'Call' };
const APPOINTMENT = {
	personId: 'p_1',
	appointmentTypeId: 'appointment-type-seed-1',
	title: 'Showing at Elm Street',
	location: '12 Elm Street',
};
const activity = [
	createGetDelete('notes', 'note', NOTE),
	createGetDelete('tasks', 'task', TASK),
	createGetDelete('appointments', 'appointment', APPOINTMENT),
];
const same = (expected) => (json) => Object.entries(expected).every(([k, v]) => json[k] === v);
/** Each field of `expected` as the record holds it, lists and objects compared whole. */
const sameDeep = (expected) => (json) =>
	Object.entries(expected).every(([k, v]) => JSON.stringify(json[k]) === JSON.stringify(v));
/** Lists and Tags' smart list: two condition groups and two columns, from values collections. */
const SMART_LIST = {
	name: 'E2E hot leads',
	conditions: [
		[{ num: null, unit: '', fld: 'stage', opr: 'is', val: 'Lead' }],
		[{ num: null, unit: '', fld: 'tags', opr: 'has', val: 'e2e-vip' }],
	],
	columns: [
		{ name: 'Name', enabled: true },
		{ name: 'Stage', enabled: false, width: 120 },
	],
};

const FAMILY_EXPECTATIONS = {
	'crm-activity.json': {
		requests: activity.flatMap((a) => a.requests),
		exactBodies: activity.flatMap((a) => a.exactBodies),
		minRequests: 9,
		maxRequests: 9,
		verify: outputs([
			['Create note', (j) => j.id === 'note-1' && same(NOTE)(j), 'note-1 with the sent fields'],
			['Get note', (j) => j.id === 'note-1' && same(NOTE)(j), 'note-1 read back'],
			[
				'Delete note',
				(j) => j.id === 'note-1' && j.deleted === true,
				'{ id: note-1, deleted: true }',
			],
			['Create task', (j) => j.id === 'task-1' && same(TASK)(j), 'task-1 with the sent fields'],
			['Get task', (j) => j.id === 'task-1' && same(TASK)(j), 'task-1 read back'],
			[
				'Delete task',
				(j) => j.id === 'task-1' && j.deleted === true,
				'{ id: task-1, deleted: true }',
			],
			[
				'Create appointment',
				(j) => j.id === 'appointment-1' && same(APPOINTMENT)(j),
				'appointment-1 with the sent fields',
			],
			['Get appointment', (j) => j.id === 'appointment-1', 'appointment-1 read back'],
			[
				'Delete appointment',
				(j) => j.id === 'appointment-1' && j.deleted === true,
				'{ id: appointment-1, deleted: true }',
			],
		]),
	},
	'lists-and-tags.json': {
		requests: [
			['POST', 'crm', '/api/lists'],
			['POST', 'crm', '/api/lists/list-1/people'],
			['DELETE', 'crm', '/api/lists/list-1/people'],
			['POST', 'crm', '/api/people/p_1/tags/apply'],
			['POST', 'crm', '/api/people/p_1/tags/delete'],
			['POST', 'crm', '/api/smart-lists'],
		],
		exactBodies: [
			['POST', 'crm', '/api/lists', { name: 'E2E buyers', description: 'People from the e2e' }],
			['POST', 'crm', '/api/lists/list-1/people', { personIds: ['p_1', 'p_2'] }],
			['DELETE', 'crm', '/api/lists/list-1/people', { personIds: ['p_2'] }],
			['POST', 'crm', '/api/people/p_1/tags/apply', { tags: ['e2e-vip', 'e2e-buyer'] }],
			['POST', 'crm', '/api/people/p_1/tags/delete', { tags: ['e2e-buyer'] }],
			// Values collections: conditions grouped by their Group number, columns one object each.
			['POST', 'crm', '/api/smart-lists', SMART_LIST],
		],
		minRequests: 6,
		maxRequests: 6,
		verify: outputs([
			[
				'Create list',
				(j) => j.id === 'list-1' && j.name === 'E2E buyers',
				'list-1 named E2E buyers',
			],
			// Built as Delete's output: the ID and what was changed (the service answers no body).
			[
				'Add people',
				(j) => j.id === 'list-1' && sameDeep({ peopleAdded: ['p_1', 'p_2'] })(j),
				'{ id: list-1, peopleAdded: [p_1, p_2] }',
			],
			[
				'Remove people',
				(j) => j.id === 'list-1' && sameDeep({ peopleRemoved: ['p_2'] })(j),
				'{ id: list-1, peopleRemoved: [p_2] }',
			],
			[
				'Add tags',
				(j) => j.id === 'p_1' && sameDeep({ tagsAdded: ['e2e-vip', 'e2e-buyer'] })(j),
				'{ id: p_1, tagsAdded: [e2e-vip, e2e-buyer] }',
			],
			[
				'Remove tags',
				(j) => j.id === 'p_1' && sameDeep({ tagsRemoved: ['e2e-buyer'] })(j),
				'{ id: p_1, tagsRemoved: [e2e-buyer] }',
			],
			[
				'Create smart list',
				(j) => j.id === 'smart-list-1' && sameDeep(SMART_LIST)(j),
				'smart-list-1 with the grouped conditions and the columns',
			],
		]),
	},
	'webhook-update.json': {
		requests: [['PUT', 'calendar', '/api/webhooks/w-1']],
		exactBodies: [
			[
				'PUT',
				'calendar',
				'/api/webhooks/w-1',
				{
					url: 'https://example.com/hooks/e2e',
					event: 'peopleUpdated',
					filters: { stage: 'Client' },
				},
			],
		],
		maxRequests: 1,
		verify: outputs([
			[
				'Update webhook',
				(j) =>
					j.id === 'w-1' &&
					j.url === 'https://example.com/hooks/e2e' &&
					j.event === 'peopleUpdated',
				'w-1 pointing at the new URL and event',
			],
		]),
	},
	'loan-file-reads.json': {
		requests: [
			['GET', 'los', '/api/loans'],
			['GET', 'los', '/api/loans/loan-1'],
			['GET', 'los', '/api/borrowers'],
			['GET', 'los', '/api/documents'],
			['GET', 'calendar', '/api/calendars'],
			['GET', 'calendar', '/api/calendarEvents'],
		],
		minRequests: 6,
		maxRequests: 6,
		// Separate branches: an empty list (the sandbox seeds no documents) stops no other read.
		verify: (runData) => {
			const counts = [
				['Get loans', 3, 3],
				['Get loan', 1, 1],
				['Get borrowers', 1, 1], // the one seeded borrower, b-1
				['Get documents', 0, 0], // none seeded
				['Get calendars', 1, 2],
				['Get calendar events', 1, 2],
			].map(([node, min, max]) => [node, min, max, itemCount(runData, node)]);
			const loan = firstItems(runData, 'Get loan')[0];
			const ok = counts.every(([, min, max, got]) => got >= min && got <= max);
			return [
				ok && !!loan && loan.id === 'loan-1' && loan.amount !== undefined,
				`items per node (Limit): ${counts.map(([node, min, max, got]) => `${node} ${got} (want ${min}..${max})`).join(', ')}; Get loan read ${loan && loan.id} (want loan-1, the first listed, with its amount)`,
			];
		},
	},
};

module.exports = { FAMILY_EXPECTATIONS };
