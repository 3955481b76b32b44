import type { FieldSpec, FieldType, ResourceSpec, SimpleKey } from './types';

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

/** A builder of one kind's fields, each labelled after its name unless `extra` gives the label. */
const kind =
	(type: FieldType) =>
	(name: string, description: string, extra: Partial<FieldSpec> = {}): FieldSpec => ({
		name,
		label: labelOf(name),
		type,
		description,
		...extra,
	});

export const text = kind('string');
export const number = kind('number');
export const flag = kind('boolean');
export const json = kind('json');
export const textList = kind('stringList');
export const objectList = kind('objectList');
export const field = (
	type: FieldType,
	name: string,
	description: string,
	extra: Partial<FieldSpec> = {},
): FieldSpec => kind(type)(name, description, extra);

/** `officeId`: "ID, in the connected CRM, of the office …". */
export const crmId = (name: string, what: string, extra: Partial<FieldSpec> = {}): FieldSpec =>
	text(name, `ID, in the connected CRM, of ${what}`, extra);

export const personIdField = (required: boolean, what: string): FieldSpec =>
	crmId('personId', `the person ${what}`, {
		placeholder: 'e.g. p_42',
		refersTo: 'person',
		...(required ? { required: true } : {}),
	});

export const userIdField = (what: string): FieldSpec =>
	crmId('userId', `the user (agent) ${what}`, { refersTo: 'user' });

export const timeField = (name: string, what: string, extra: Partial<FieldSpec> = {}): FieldSpec =>
	kind('dateTime')(
		name,
		`${what}, as text passed through unchanged (an ISO 8601 timestamp such as 2024-05-01T15:00:00Z is typical)`,
		{ placeholder: 'e.g. 2024-05-01T15:00:00Z', ...extra },
	);

/** Name and email address of a sender or recipient (email messages). */
export const NAME_AND_EMAIL: readonly FieldSpec[] = [
	text('name', 'Display name', { required: true }),
	text('email', 'Email address', { required: true }),
];

/** `appointment-types` → `appointmentType`: the resource value a CRM path names. */
const valueOf = (path: string) =>
	path.replace(/-(\w)/g, (_dash, first: string) => first.toUpperCase()).replace(/s$/, '');

/** A CRM entity's resource from its path: value, label, nouns, list key and ID follow from it. */
export function crmResource(
	path: string,
	description: string,
	fields: readonly FieldSpec[] | undefined,
	extra: Partial<ResourceSpec> = {},
): ResourceSpec {
	const value = valueOf(path);
	const label = labelOf(value);
	const one = label.toLowerCase();
	return {
		value,
		label,
		description,
		host: 'crm',
		path: [path],
		listKey: path.toLowerCase(),
		id: {
			label: `${label} ID`,
			name: `${value}Id`,
			placeholder: `e.g. ${one.replace(/ /g, '-')}-1`,
		},
		noun: { one, many: `${one}s` },
		section: 'crm',
		operations: CRUD,
		...(fields ? { fields } : {}),
		source: 'crm-endpoints.md',
		...extra,
	};
}

/** A record of the loan origination system, e.g. `loan`: path and list key `loans`, ID `loanId`. */
export function losResource(
	one: string,
	description: string,
	placeholder: string,
	extra: Partial<ResourceSpec>,
): ResourceSpec {
	const label = labelOf(one);
	const many = `${one}s`;
	return {
		value: one,
		label,
		description: `${description} in the connected loan origination system`,
		host: 'los',
		path: [many],
		listKey: many,
		id: { label: `${label} ID`, name: `${one}Id`, placeholder },
		noun: { one, many },
		section: 'loanAndCalendar',
		operations: CRUD,
		...extra,
	};
}

/** The fields an operation sends: create's or update's (required only on create). */
export function fieldsFor(
	resource: { fields?: readonly FieldSpec[] },
	operation: 'create' | 'update',
): readonly FieldSpec[] {
	return (resource.fields ?? [])
		.filter((spec) => spec.only === undefined || spec.only === operation)
		.map((spec) => (operation === 'update' && spec.required ? { ...spec, required: false } : spec));
}
