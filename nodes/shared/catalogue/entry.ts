import type { FieldDraft, FieldSpec, FieldType, ResourceSpec, SimpleKey } from './types';

/** How the family files write their entries: fields, CRM resources, and what an operation sends. */

export const CRUD = ['create', 'delete', 'get', 'getAll', 'update'] as const;

/** Connected systems name the times `created`/`updated` or `createdAt`/`updatedAt`. */
const RECORD_TIMES = ['created', 'updated', 'createdAt', 'updatedAt'] as const;

/** The keys every record of the service may carry (spec 2.1 to 2.5), its body fields aside. */
export const RECORD_KEYS: readonly string[] = [
	'id',
	...RECORD_TIMES,
	'serviceUpdated',
	'originalIds',
	'original',
];

/** An entry's `simple`: its ID, the keys given, then its times. */
export const simpleForm = (...keys: readonly SimpleKey[]): readonly SimpleKey[] => [
	'id',
	...keys,
	...RECORD_TIMES,
];

export const primary = (name: string, primaryOf: string): SimpleKey => ({ name, primaryOf });

/** `appointmentType` → `Appointment Type`, `pageUrl` → `Page URL`: a label as the editor shows it. */
export const labelOf = (name: string) =>
	name
		.replace(/([A-Z])/g, ' $1')
		.replace(/^./, (first) => first.toUpperCase())
		.replace(/\bId(s?)\b/g, 'ID$1')
		.replace(/\b(Url|Html)\b/g, (word) => word.toUpperCase());

/** Fields keyed by their wire names, in the order written; labelled after the name unless a draft gives one. */
export const fields = (drafts: Readonly<Record<string, FieldDraft>>): readonly FieldSpec[] =>
	Object.entries(drafts).map(([name, draft]) => ({ name, label: labelOf(name), ...draft }));

export const field = (
	type: FieldType,
	description: string,
	extra: Partial<FieldDraft> = {},
): FieldDraft => ({ type, description, ...extra });

const kind = (type: FieldType) => field.bind(undefined, type);

export const text = kind('string');
export const number = kind('number');
export const flag = kind('boolean');
export const json = kind('json');
export const textList = kind('stringList');
export const objectList = kind('objectList');

export const crmId = (what: string, extra: Partial<FieldDraft> = {}): FieldDraft =>
	text(`ID, in the connected CRM, of ${what}`, extra);

export const timeField = (what: string, extra: Partial<FieldDraft> = {}): FieldDraft =>
	field(
		'dateTime',
		`${what}, as text passed through unchanged (an ISO 8601 timestamp such as 2024-05-01T15:00:00Z is typical)`,
		{ placeholder: 'e.g. 2024-05-01T15:00:00Z', ...extra },
	);

/** `appointment-types` → `appointmentType`: the resource value a CRM path names. */
const valueOf = (path: string) =>
	path.replace(/-(\w)/g, (_dash, first: string) => first.toUpperCase()).replace(/s$/, '');

/** An entity as its family file writes it: a description, its fields by name, what differs. */
type EntityEntry = Partial<Omit<ResourceSpec, 'fields'>> & {
	description: string;
	fields?: Readonly<Record<string, FieldDraft>>;
};

/** An entity's resource from its path: value, label, nouns, list key and ID (where an operation takes one) follow from it. */
function entityResource(path: string, { fields: drafts, ...entry }: EntityEntry): ResourceSpec {
	const value = valueOf(path);
	const label = labelOf(value);
	const one = label.toLowerCase();
	const byId = (entry.operations ?? CRUD).some((operation) => operation !== 'getAll');
	const placeholder = `e.g. ${one.replace(/ /g, '-')}-1`;
	return {
		value,
		label,
		host: 'crm',
		path: [path],
		listKey: path.toLowerCase(),
		...(byId ? { id: { label: `${label} ID`, name: `${value}Id`, placeholder } } : {}),
		noun: { one, many: `${one}s` },
		section: 'crm',
		operations: CRUD,
		...(drafts ? { fields: fields(drafts) } : {}),
		...entry,
	};
}

export const crmResource = (path: string, entry: EntityEntry): ResourceSpec =>
	entityResource(path, { source: 'crm-endpoints.md', ...entry });

/** A record of the loan origination system, e.g. `loan`: path and list key `loans`, ID `loanId`. */
export const losResource = (
	one: string,
	placeholder: string,
	{ description, ...entry }: EntityEntry,
): ResourceSpec =>
	entityResource(`${one}s`, {
		description: `${description} in the connected loan origination system`,
		host: 'los',
		section: 'loanAndCalendar',
		id: { label: `${labelOf(one)} ID`, name: `${one}Id`, placeholder },
		...entry,
	});

/** A list of the calendar host, read only, e.g. `calendarEvents`. */
export const calendarList = (path: string, entry: EntityEntry): ResourceSpec =>
	entityResource(path, {
		host: 'calendar',
		section: 'loanAndCalendar',
		listKey: path,
		operations: ['getAll'],
		...entry,
	});

/** The fields an operation sends: create's or update's (required only on create). */
export function fieldsFor(
	resource: { fields?: readonly FieldSpec[] },
	operation: 'create' | 'update',
): readonly FieldSpec[] {
	return (resource.fields ?? [])
		.filter((spec) => spec.only === undefined || spec.only === operation)
		.map((spec) => (operation === 'update' && spec.required ? { ...spec, required: false } : spec));
}
