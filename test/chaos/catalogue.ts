/**
 * Chaos scenarios drawn from the catalogue (nodes/shared/catalogue, RESOURCES): every operation of
 * every resource on the CRM, LOS and calendar hosts, in one connected system's shape (a Profile of
 * service.ts). What they cover and leave out: README.md in this folder.
 *
 * - Get, Create, Update, Delete and the member changes (Add/Remove Tags, Add/Remove People) are
 *   `writes`/`records` of ITEMS items, each naming its record by its ID as the profile writes IDs
 *   (text holding `/`, `%`, `?`, `#`; `11`, `12`…; UUIDs), given from the input item as a workflow
 *   passes on an ID another node output. Create and Update send the catalogue's required fields and
 *   one text field, mapped from the item (Map Automatically; the form where the operation has no
 *   mapping modes; one JSON object where the catalogue publishes no fields).
 * - Get Many runs with Return All, and again with Page at a Time looped batch by batch.
 * - Person › Find and Create or Update read the people list, then GET or write: people.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { RESOURCES, type FieldSpec, type ResourceSpec } from '../../nodes/shared/catalogue';
import { fieldsFor } from '../../nodes/shared/catalogue';
import { peopleScenarios } from './people';
import { pick, refs, type Method, type Scenario } from './scenarios';
import { TEXTS, uuidOf, type Host, type Profile } from './service';

/** Items per run of a write or a Get: several at once, and retries among them. */
const ITEMS = 3;
const LIST_SIZE = 5;
const PAGING = ['link', 'next', 'offset'] as const;

/** The record ID of the item at `index`, as the profile writes IDs. */
function idOf(profile: Profile, ref: string, index: number, random: () => number): unknown {
	if (profile === 'numeric') return 11 + index;
	if (profile === 'uuid') return uuidOf(0x11 + index);
	return `${ref}/${pick(random, TEXTS)}`;
}

/** A value of a field as an input item carries it; text fields hold the item's name (`item-N …`). */
function sample(field: FieldSpec, ref: string, random: () => number): unknown {
	const text = `${ref} ${pick(random, TEXTS)}`;
	switch (field.type) {
		case 'number':
			return Math.floor(random() * 1e6) / 4;
		case 'boolean':
			return random() < 0.5;
		case 'stringList':
			return [text, 'vip'];
		case 'json':
			return { name: text };
		case 'jsonArray':
		case 'objectList':
			return [part(field, ref, random)];
		case 'conditionGroups':
			return [[part(field, ref, random)]];
		case 'emails':
		case 'phones':
			return [{ value: 'ann@example.test', type: 'work' }];
		case 'addresses':
			return [{ city: text }];
		case 'dateTime':
			return '2024-05-01T15:00:00Z';
		default:
			return text;
	}
}

const part = (field: FieldSpec, ref: string, random: () => number) =>
	Object.fromEntries((field.items ?? []).map((inner) => [inner.name, sample(inner, ref, random)]));

/** The body a Create or Update sends: the required fields and the first text field. */
function bodyOf(
	resource: ResourceSpec,
	operation: 'create' | 'update',
	ref: string,
	random: () => number,
): IDataObject {
	const fields = fieldsFor(resource, operation);
	const chosen = fields.filter((field) => field.required || field.writeOnly);
	const text = fields.find((field) => field.type === 'string' && !field.writeOnly);
	if (text && !chosen.includes(text)) chosen.push(text);
	return Object.fromEntries(
		chosen.map((field) => [
			field.name,
			field.writeOnly ? `pw-${ref}-${Math.floor(random() * 1e9)}` : sample(field, ref, random),
		]),
	) as IDataObject;
}

/** The documents' required fields the form of Document › Create gives, the name from the item. */
const DOCUMENT = {
	category: 'income',
	status: 'received',
	type: 'W2',
	fileUrl: 'https://files.example.test/w2.pdf',
	mimeType: 'application/pdf',
	fileSignature: 'sha256:9f86',
	folderId: 'folder-42',
};

/** How an operation is given its body: its parameters, and the item's fields sent as the body. */
function bodyParameters(resource: ResourceSpec, operation: string): INodeParameters {
	switch (`${resource.value} ${operation}`) {
		case 'document create':
			return { name: '={{ $json.given.name }}', ...DOCUMENT };
		case 'borrower update':
			return { updateFields: { name: '={{ $json.given.name }}' } };
		case 'webhook update':
			return { updateFields: { event: '={{ $json.given.event }}' } };
	}
	if ((resource as { jsonBody?: boolean }).jsonBody) return { jsonBody: '={{ $json.given }}' };
	return { mappingMode: 'autoMapInputData' };
}

/** The body the item's record is given: what the operation's parameters above send. */
function itemBody(
	resource: ResourceSpec,
	operation: 'create' | 'update',
	ref: string,
	random: () => number,
): IDataObject {
	const text = `${ref} ${pick(random, TEXTS)}`;
	switch (`${resource.value} ${operation}`) {
		case 'document create':
			return { name: text, ...DOCUMENT };
		case 'borrower update':
			return { name: text };
		case 'webhook update':
			return { event: text };
	}
	if ((resource as { jsonBody?: boolean }).jsonBody) return { label: text, type: 'date' };
	return bodyOf(resource, operation, ref, random);
}

/** Where the operation's request goes after the resource's path, and the key the output names. */
const MEMBERS: Record<string, { method: Method; more: string[]; field: string; output: string }> = {
	'person addTags': { method: 'POST', more: ['tags', 'apply'], field: 'tags', output: 'tagsAdded' },
	'person removeTags': {
		method: 'POST',
		more: ['tags', 'delete'],
		field: 'tags',
		output: 'tagsRemoved',
	},
	'list addPeople': { method: 'POST', more: ['people'], field: 'personIds', output: 'peopleAdded' },
	'list removePeople': {
		method: 'DELETE',
		more: ['people'],
		field: 'personIds',
		output: 'peopleRemoved',
	},
};

const hostOf = (resource: ResourceSpec): Host => resource.host as Host;
const label = (resource: ResourceSpec, operation: string, profile: Profile) =>
	`${resource.label} › ${operation}, ${profile}`;

/** Get Many with Return All, and Page at a Time looped batch by batch. */
function listScenarios(resource: ResourceSpec, profile: Profile, index: number): Scenario[] {
	const list = {
		host: hostOf(resource),
		path: resource.path.join('/'),
		key: resource.listKey ?? resource.path[resource.path.length - 1],
		size: LIST_SIZE,
		paging: PAGING[index % PAGING.length],
		profile,
	};
	const base = { host: list.host, method: 'GET' as const, list };
	const parameters = { resource: resource.value, operation: 'getAll' };
	return [
		{
			...base,
			label: label(resource, 'getAll, Return All', profile),
			shape: 'list',
			parameters: { ...parameters, returnAll: true },
		},
		{
			...base,
			label: label(resource, 'getAll, Page at a Time', profile),
			shape: 'batches',
			parameters: { ...parameters, limit: 4, pageAtATime: true, options: { pageSize: 2 } },
			limit: 4,
			batchKey: list.key,
		},
	];
}

/** Any other operation: one request per item, to the item's record (or the list, for Create). */
function itemScenario(resource: ResourceSpec, operation: string, profile: Profile): Scenario {
	const idName = resource.id?.name ?? 'id';
	const path = [...resource.path];
	const members = MEMBERS[`${resource.value} ${operation}`];
	const writes = operation === 'create' || operation === 'update' ? operation : undefined;
	const method: Method = members?.method ?? METHODS[operation];
	const parameters: INodeParameters = { resource: resource.value, operation };
	if (operation !== 'create') parameters[idName] = '={{ $json.id }}';
	if (writes) Object.assign(parameters, bodyParameters(resource, writes));
	if (members) parameters[members.field] = `={{ $json.given.${members.field} }}`;
	const writeOnly = writes ? fieldsFor(resource, writes).filter((field) => field.writeOnly) : [];
	return {
		label: label(resource, operation, profile),
		host: hostOf(resource),
		method,
		shape: operation === 'get' ? 'records' : 'writes',
		profile,
		parameters,
		items: (random) =>
			refs(ITEMS).map((ref, index) => {
				const body = writes
					? itemBody(resource, writes, ref, random)
					: members
						? { [members.field]: [`${ref} ${pick(random, TEXTS)}`, 'vip'] }
						: undefined;
				const id = operation === 'create' ? undefined : idOf(profile, ref, index, random);
				// Map Automatically reads the body's fields from the item itself (no field is named id or given).
				const mapped = parameters.mappingMode === 'autoMapInputData' ? body : {};
				return { ...mapped, ...(id === undefined ? {} : { id }), ...(body ? { given: body } : {}) };
			}),
		sends: (item) => ({
			path: [
				...path,
				...(operation === 'create' ? [] : [String(item.id)]),
				...(members?.more ?? []),
			],
			...(item.given === undefined ? {} : { body: item.given }),
		}),
		output: (item, answer) => {
			if (operation === 'delete') return { id: item.id, deleted: true };
			if (members)
				return { id: item.id, [members.output]: (item.given as IDataObject)[members.field] };
			const record = { ...(answer as IDataObject) };
			for (const field of writeOnly) delete record[field.name];
			return record;
		},
		...(writeOnly.length
			? {
					secrets: (item: IDataObject) =>
						writeOnly.map((field) => String((item.given as IDataObject)[field.name])),
				}
			: {}),
	};
}

const METHODS: Record<string, Method> = {
	get: 'GET',
	create: 'POST',
	update: 'PUT',
	delete: 'DELETE',
};

/**
 * Every operation of every resource with a fixed host other than the universal one, in the
 * profile's shape. The universal host's resources take no Connection ID, so no connected system's
 * shape applies to them; Custom API Call has its own suite (custom-api-call.test.ts).
 */
export function catalogueScenarios(profile: Profile): Scenario[] {
	const later: Scenario[] = [];
	const scenarios = RESOURCES.filter(
		(resource) => resource.host !== 'universal' && resource.host !== 'chosen',
	)
		.flatMap((resource) => resource.operations.map((operation) => [resource, operation] as const))
		.flatMap(([resource, operation], index) => {
			if (operation === 'getAll') return listScenarios(resource, profile, index);
			if (resource.value === 'person' && (operation === 'find' || operation === 'upsert')) {
				const [first, ...more] = peopleScenarios(profile, operation);
				later.push(...more);
				return [first];
			}
			return [itemScenario(resource, operation, profile)];
		});
	// Their other cases last: every other scenario keeps its place, and so its seed and credential mode.
	return [...scenarios, ...later];
}
