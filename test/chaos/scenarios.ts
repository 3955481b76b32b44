/**
 * What the chaos suite runs through n8n's engine: the node's parameters, the input items (drawn from the
 * seed), what each item must send, and how the service answers (writes, one record, a list in pages).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RequestKind } from './faults';
import { TEXTS, type Host, type ListModel, type Profile } from './service';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * writes / records: one request per input item, one output item each; list: one input item, its records
 * (or, with Simplify off, its pages); batches: Page at a Time, run batch by batch with each nextCursor;
 * people: Person › Find or Create or Update, the people list's pages read once per run, then a GET of
 * each match or one write per item.
 */
export type Shape = 'writes' | 'records' | 'list' | 'batches' | 'people';

/** A person's ID as the profile writes it. */
export type PersonId = string | number;

/**
 * What Person › Find or Create or Update must do with each item, once the people list was read: the
 * people it matches (the matches of the kind that decides, for Create or Update), in the list's order.
 */
export interface PeopleCase {
	operation: 'find' | 'upsert';
	/** The people list the service serves (its records in `list.records`). */
	list: ListModel;
	/**
	 * Per input item: the people it matches in the list, and the kind of key that found them. Create
	 * or Update: `follows`, an earlier item with its (new) email; what that item's create came to
	 * decides (the person it made is updated; a create of unknown outcome refuses this one).
	 */
	matches: Array<{ ids: PersonId[]; by: 'email' | 'phone'; follows?: number }>;
	/** Find: One Item With the Matches, and When Nothing Matches: Fail the Item. */
	oneItem?: true;
	failWhenNone?: true;
	/** Create or Update: the body an item's write sends, and the query of its PUT (`?mergeTags=true`). */
	body?: (item: IDataObject) => IDataObject;
	query?: string;
}

export interface Scenario {
	label: string;
	host: Host;
	method: Method;
	shape: Shape;
	parameters: INodeParameters;
	/** writes and records: the input items, from the seed's generator; each names itself `item-N`. */
	items?: (random: () => number) => IDataObject[];
	/** writes and records: the path segments under /api an item's request names, and its body. */
	sends?: (item: IDataObject) => { path: string[]; body?: unknown };
	list?: ListModel;
	/** Limit of a list, or the size of a batch. */
	limit?: number;
	/** Simplify off without Page at a Time: each page is output as the service sent it. */
	pagesOut?: true;
	/** Page at a Time: the key of the batch's records. */
	batchKey?: string;
	/** writes and records: the connected system's shape of the answers (a list's is in `list`). */
	profile?: Profile;
	/**
	 * writes and records: what the node must output for an item whose request was answered `answer`;
	 * the answer itself when not given (Delete and the member changes build their own).
	 */
	output?: (item: IDataObject, answer: unknown) => unknown;
	/** The item's write-only values (a user's password): like a secret, in no output or error. */
	secrets?: (item: IDataObject) => string[];
	/** people: the list, and what each item must come to. */
	people?: PeopleCase;
	/** The longest the run may take (RUN_BUDGET_MS when not given). */
	budgetMs?: number;
}

export const ITEMS = 8;

export const kindOf = (scenario: Scenario): RequestKind =>
	scenario.shape === 'writes' ? 'write' : scenario.shape === 'records' ? 'record' : 'page';

export const pick = <T>(random: () => number, from: readonly T[]): T =>
	from[Math.floor(random() * from.length)];

/** Any JSON value (no numbers JSON cannot hold exactly), nested at most twice. */
function jsonValue(random: () => number, depth = 0): unknown {
	const roll = random();
	if (depth < 2 && roll < 0.2) return [jsonValue(random, depth + 1), jsonValue(random, depth + 1)];
	if (depth < 2 && roll < 0.35)
		return { [pick(random, TEXTS)]: jsonValue(random, depth + 1), n: Math.floor(roll * 1e6) };
	return pick(random, [pick(random, TEXTS), roll * 1000, -7, 0, true, false, null, '', []]);
}

export const refs = (count = ITEMS) =>
	Array.from({ length: count }, (_v, index) => `item-${index}`);

/** An ID that stays one path segment: no `/`, `%`, `?`, `#` (a Custom API Call path splits on them). */
const pathId = (ref: string, random: () => number) =>
	`${ref} ${pick(random, ['Zoë', '東京', "O'Brien", 'a+b=c', 'x y', '🎉'])}`;

const customBodies = (random: () => number) =>
	refs().map((ref) => ({
		id: pathId(ref, random),
		body: { ref, title: pick(random, TEXTS), amount: 1234.5, value: jsonValue(random) },
	}));

const custom = (
	host: Host,
	method: Method,
	path: string,
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'customApiCall',
	operation: 'send',
	host,
	method,
	path,
	...extra,
});

/** A write to `path` (POST) or to the item's record under it, with the item's body (not DELETE). */
const customWrite = (label: string, host: Host, method: Method, path: string): Scenario => ({
	label,
	host,
	method,
	shape: 'writes',
	parameters: custom(host, method, method === 'POST' ? path : `=${path}/{{ $json.id }}`, {
		...(method === 'DELETE' ? {} : { body: '={{ $json.body }}' }),
	}),
	items: customBodies,
	sends: (item) => ({
		path: method === 'POST' ? [path] : [path, String(item.id)],
		...(method === 'DELETE' ? {} : { body: item.body }),
	}),
});

/** Person › Create, Borrower › Update and Person › Update, and Get Many in both list modes. */
export const NODE_SCENARIOS: Scenario[] = [
	{
		label: 'Person › Create',
		host: 'crm',
		method: 'POST',
		shape: 'writes',
		parameters: { resource: 'person', operation: 'create', firstName: '={{ $json.name }}' },
		items: (random) => refs().map((ref) => ({ name: `${ref} ${pick(random, TEXTS)}` })),
		sends: (item) => ({ path: ['people'], body: { firstName: item.name } }),
	},
	{
		label: 'Borrower › Update',
		host: 'los',
		method: 'PUT',
		shape: 'writes',
		parameters: {
			resource: 'borrower',
			operation: 'update',
			borrowerId: '={{ $json.id }}',
			updateFields: { name: '={{ $json.name }}' },
		},
		// Borrower IDs are one segment whatever they hold: slashes, percent signs, ? and # included.
		items: (random) =>
			refs().map((ref) => ({ id: `${ref}/${pick(random, TEXTS)}`, name: pick(random, TEXTS) })),
		sends: (item) => ({ path: ['borrowers', String(item.id)], body: { name: item.name } }),
	},
	{
		label: 'Person › Update',
		host: 'crm',
		method: 'PUT',
		shape: 'writes',
		parameters: {
			resource: 'person',
			operation: 'update',
			personId: '={{ $json.personId }}',
			mappingMode: 'autoMapInputData',
		},
		items: (random) =>
			refs().map((ref) => ({
				personId: `${ref}?${pick(random, TEXTS)}`,
				firstName: pick(random, TEXTS),
				lastName: pick(random, TEXTS),
				stage: 'Lead',
				averagePrice: Math.floor(random() * 1e6) / 4,
				tags: [pick(random, TEXTS), 'vip'],
			})),
		sends: ({ personId, ...fields }) => ({ path: ['people', String(personId)], body: fields }),
	},
	{
		label: 'Person › Get Many, Return All',
		host: 'crm',
		method: 'GET',
		shape: 'list',
		parameters: { resource: 'person', operation: 'getAll', returnAll: true },
		list: { host: 'crm', path: 'people', key: 'people', size: 8, paging: 'link' },
	},
	{
		label: 'Person › Get Many, Page at a Time',
		host: 'crm',
		method: 'GET',
		shape: 'batches',
		parameters: {
			resource: 'person',
			operation: 'getAll',
			limit: 4,
			pageAtATime: true,
			options: { pageSize: 2 },
		},
		list: { host: 'crm', path: 'people', key: 'people', size: 10, paging: 'link' },
		limit: 4,
		batchKey: 'people',
	},
];

/** Custom API Call: every method, on all four hosts, and a GET in each list mode and of one record. */
export const CUSTOM_SCENARIOS: Scenario[] = [
	customWrite('Custom API Call › POST', 'crm', 'POST', 'notes'),
	customWrite('Custom API Call › PUT', 'los', 'PUT', 'loans'),
	customWrite('Custom API Call › PATCH', 'calendar', 'PATCH', 'appointments'),
	customWrite('Custom API Call › DELETE', 'universal', 'DELETE', 'credentials'),
	{
		label: 'Custom API Call › GET one record',
		host: 'crm',
		method: 'GET',
		shape: 'records',
		parameters: custom('crm', 'GET', '=people/{{ $json.id }}'),
		items: (random) => refs().map((ref) => ({ id: pathId(ref, random) })),
		sends: (item) => ({ path: ['people', String(item.id)] }),
	},
	{
		label: 'Custom API Call › GET, Return All',
		host: 'los',
		method: 'GET',
		shape: 'list',
		parameters: custom('los', 'GET', 'loans', { returnAll: true }),
		list: { host: 'los', path: 'loans', key: 'loans', size: 10, paging: 'next' },
	},
	{
		label: 'Custom API Call › GET, Limit, Simplify off',
		host: 'calendar',
		method: 'GET',
		shape: 'list',
		parameters: custom('calendar', 'GET', 'appointments', { limit: 7, simplify: false }),
		list: {
			host: 'calendar',
			path: 'appointments',
			key: 'appointments',
			size: 10,
			paging: 'offset',
		},
		limit: 7,
		pagesOut: true,
	},
	{
		label: 'Custom API Call › GET, Page at a Time',
		host: 'universal',
		method: 'GET',
		shape: 'batches',
		parameters: custom('universal', 'GET', 'credentials', { limit: 4, pageAtATime: true }),
		list: {
			host: 'universal',
			path: 'credentials',
			key: 'credentials',
			size: 10,
			paging: 'offset',
		},
		limit: 4,
		batchKey: 'records',
	},
];
