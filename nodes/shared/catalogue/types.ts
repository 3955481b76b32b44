import type { ServiceHost } from '../service';

/** The catalogue's vocabulary. An entity is an entry in its family file, listed in `entities.ts`. */

/** How a field is offered and read (one file per kind in helpers/kinds); a list kind also takes one JSON value. */
export type FieldType =
	| 'string'
	| 'number'
	| 'boolean'
	| 'stringList'
	| 'json'
	| 'jsonArray'
	| 'objectList'
	| 'conditionGroups'
	| 'dateTime'
	| 'emails'
	| 'phones'
	| 'addresses'
	| 'consent'
	| 'entitiesToSync';

/** One body field of an entity: the node's parameter is named as its wire field. */
export interface FieldSpec {
	name: string;
	/** Named in every error of the field. */
	label: string;
	type: FieldType;
	required?: boolean;
	description: string;
	/** Text kinds: an example; `stringList`, `objectList`: the add button's text (e.g. "Add Tag"). */
	placeholder?: string;
	/** `number`: the lowest value accepted. */
	min?: number;
	/** `boolean`: the value the toggle shows when the field is added (off unless given). */
	initial?: boolean;
	/** `objectList`, `conditionGroups`: the parts of one entry, each a plain field. */
	items?: readonly FieldSpec[];
	/** Sent, never output (a password): redacted from the answer and errors, its key dropped. */
	writeOnly?: boolean;
	/** Sent only on create, or only on update; both when absent. */
	only?: 'create' | 'update';
	/** `json`, required: `{}` is a value, not an empty field. */
	emptyAllowed?: boolean;
	/** The resource whose record the field names: from version 2 a locator searching its list. */
	refersTo?: string;
}

/** A field as a family file writes it: keyed by its name in `fields({…})`, labelled after it unless given. */
export type FieldDraft = Omit<FieldSpec, 'name' | 'label'> & { label?: string };

/** The operations every entity may list; `members` operations are named by the entry. */
export type EntityOperation = 'getAll' | 'get' | 'create' | 'update' | 'delete';

/** An operation that adds names to, or removes them from, a record (a list's people, a person's tags). */
export interface MembersSpec {
	label: string;
	/** e.g. "add tags to". */
	verb: string;
	method: 'POST' | 'DELETE';
	/** Path segments after the record's ID. */
	path: readonly string[];
	/** The output's key for the names sent, e.g. `tagsAdded`. */
	output: string;
	field: FieldSpec;
}

/** The Resource list's sections, in order (by label within one); Custom API Call last, as n8n's own. */
export const SECTIONS = [
	'main',
	'crm',
	'loanAndCalendar',
	'administration',
	'anyEndpoint',
] as const;
export type Section = (typeof SECTIONS)[number];

/** A key Simplify keeps: the record's, or the primary entry's value of a contact list (`email` of `emails`). */
export type SimpleKey = string | { name: string; primaryOf: string };

/** Where the node offers an entity (or a service function) as a resource. */
export interface ResourceSpec {
	/** The Resource option's value (and the router's key). */
	value: string;
	label: string;
	description: string;
	section: Section;
	/** `chosen`: the user picks the host per item. */
	host: ServiceHost | 'chosen';
	/** Path segments after /api of the list (and, followed by the ID, of one record). */
	path: readonly string[];
	/** Key of the records list in a page, e.g. "people". */
	listKey?: string;
	id?: { label: string; name: string; placeholder: string };
	/** Nouns for the generic operations' texts, e.g. person / people. */
	noun?: { one: string; many: string };
	/** Listed by name in the Operation option. */
	operations: readonly string[];
	/** The first by name when absent. */
	defaultOperation?: string;
	operationTexts?: Readonly<Record<string, string>>;
	members?: Readonly<Record<string, MembersSpec>>;
	/** Create and Update take the whole body as one JSON object: the source shows no fields. */
	jsonBody?: boolean;
	/** Fields Create shows on their own beside the required ones. */
	createFirst?: readonly string[];
	/** Fields a user nearly always sets: version 2's Create shows them on the form itself. */
	upFront?: readonly string[];
	additionalHint?: string;
	/** A file of the spec or the service page the entry comes from. */
	source?: string;
	/** In the order of their labels. */
	fields?: readonly FieldSpec[];
	/** Keys its records carry besides the body fields and RECORD_KEYS: the keys `simple` may name. */
	readKeys?: readonly string[];
	/** What Simplify keeps at version 2 (and a model reads by default), in output order. */
	simple?: readonly SimpleKey[];
	/** The Entities to Sync flag a connection must turn on before the service lists these records. */
	syncOptIn?: string;
}

/** An entity kind of the service (spec 2.3, and people). */
export interface EntitySpec {
	/** The sync flag's key and the prefix of its event names (`<kind>Created`). */
	kind: string;
	syncFlag: boolean;
	/** The trigger offers `<kind>Created|Updated|Deleted`. */
	events: boolean;
	resource?: ResourceSpec;
}
