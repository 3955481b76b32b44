import type { ServiceHost } from '../service';

/**
 * The catalogue's vocabulary. How to add an entity:
 * 1. Kinds the service syncs or raises events for are in `entities.ts` (spec 2.3 order); a kind the
 *    node should offer as a resource gets a `resource` there (or in its family file, e.g.
 *    `crmActivity.ts`): value and label, host, path, list key, ID, its operations, its fields.
 * 2. get, getAll, create, update, delete and `members` operations need nothing more: the entity
 *    operation files (actions/entity) read the entry. A field's `type` names its kind
 *    (helpers/kinds), which builds its property and reads its value.
 * 3. Seed the sandbox (test/sandbox) with its rows, and add an engine test.
 * Resource options, Connection ID visibility, trigger events, Entities to Sync flags and the list keys
 * the pager knows all follow from the entry.
 */

/**
 * How a field is offered and read. Text-like kinds are sent as written: `dateTime` is text the
 * service does not parse for us (an ISO 8601 timestamp is typical). `json` is a JSON object and
 * `jsonArray` a JSON array of objects whose keys are not published. `objectList` is a list of objects
 * whose keys are (`items`): offered as a `values` collection like Person's emails, each entry's parts
 * read as these fields are. `conditionGroups` is a list of lists of such objects (a smart list's
 * conditions): entries with a Group number, the same number making one inner list. The compound kinds
 * are Person's: contact values (`emails`, `phones`: value, type, status, Is Primary), `addresses`, and
 * `consent` (communicationsConsent); `entitiesToSync` is a connection's sync flags. Every list kind can also be given whole as one JSON value
 * (decisions.md, "A list of objects as one value").
 */
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

/** One body field of an entity, declared once: the node's parameter is named as its wire field. */
export interface FieldSpec {
	/** The wire name (and the parameter's name). */
	name: string;
	/** The label, named in every error of the field. */
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
	/**
	 * Sent, never output (a user's password; a top-level text field): the value sent is taken out of
	 * that request's answer and errors like a secret, and its key out of the record answered
	 * (actions/request.ts, decisions.md "Write-only fields").
	 */
	writeOnly?: boolean;
	/** Sent only on create, or only on update (the bodies differ); both when absent. */
	only?: 'create' | 'update';
	/** `json`, required: `{}` is a value (all an external application may need), not an empty field. */
	emptyAllowed?: boolean;
	/**
	 * The resource (its value) whose record the field names, e.g. `person` for a note's Person ID:
	 * from version 2 the field is a locator that searches that resource's list (actions/listSearch.ts),
	 * its labels taken from that resource's nouns.
	 */
	refersTo?: string;
}

/** The operations every entity may list; `members` operations are named by the entry. */
export type EntityOperation = 'getAll' | 'get' | 'create' | 'update' | 'delete';

/**
 * An operation that adds names to, or removes them from, a record (a list's people, a person's
 * tags): `{field}` sent to {path}/{id}/{path}, one item `{ id, <output>: names }` whatever the answer.
 */
export interface MembersSpec {
	/** The Operation option's name, e.g. Add Tags. */
	label: string;
	/** What the operation does to the record, e.g. "add tags to". */
	verb: string;
	method: 'POST' | 'DELETE';
	/** Path segments after the record's ID. */
	path: readonly string[];
	/** The output's key for the names sent, e.g. `tagsAdded`. */
	output: string;
	field: FieldSpec;
}

/**
 * Where the Resource list and the Actions panel show a resource, in this order: the main record
 * (Person), the CRM's records, the loan file's and the calendar's, the administration of the service
 * (authorization links, credentials, webhooks), and last Custom API Call (where n8n shows its own).
 * Within a section, by label.
 */
export const SECTIONS = [
	'main',
	'crm',
	'loanAndCalendar',
	'administration',
	'anyEndpoint',
] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * A record key Simplify keeps (version 2): the key as the record has it, or the value of the primary
 * entry (`isPrimary` true or 1, else the first) of a contact list (`emails`, `phones`) under a key of
 * its own, e.g. `{ name: 'email', primaryOf: 'emails' }`.
 */
export type SimpleKey = string | { name: string; primaryOf: string };

/** Where the node offers an entity (or a service function) as a resource. */
export interface ResourceSpec {
	/** The Resource option's value (and the router's key). */
	value: string;
	label: string;
	/** The Resource option's description. */
	description: string;
	section: Section;
	/** The host every request of the resource goes to; `chosen` when the user picks it per item. */
	host: ServiceHost | 'chosen';
	/** Path segments after /api of the list (and, followed by the ID, of one record). */
	path: readonly string[];
	/** Key of the records list in a page of the list (spec 3.x), e.g. "people". */
	listKey?: string;
	/** The record's ID parameter: its label (named once, in every error) and name. */
	id?: { label: string; name: string; placeholder: string };
	/** Singular and plural nouns for the generic operations' texts, e.g. person / people. */
	noun?: { one: string; many: string };
	/** Which operations exist (the Operation option lists them in the order of their names). */
	operations: readonly string[];
	/** The Operation option's default; the first by name when absent. */
	defaultOperation?: string;
	/** An operation's option description where the entry words it itself. */
	operationTexts?: Readonly<Record<string, string>>;
	/** The operations that change a record's members, by their option value. */
	members?: Readonly<Record<string, MembersSpec>>;
	/** Create and Update take the whole body as one JSON object: the source shows no fields. */
	jsonBody?: boolean;
	/** Fields Create shows on their own beside the required ones (the rest go in Additional Fields). */
	createFirst?: readonly string[];
	/**
	 * The fields a user nearly always sets: from version 2 Create shows them on the form itself (after
	 * the required ones and `createFirst`), even where the service marks them optional.
	 */
	upFront?: readonly string[];
	/** Additional Fields' description on Create. */
	additionalHint?: string;
	/** Where the entry's description comes from: a file of the spec or the service page it cites. */
	source?: string;
	/** The body fields, in the order of their labels. */
	fields?: readonly FieldSpec[];
	/**
	 * Keys its records carry besides the body fields and every record's (RECORD_KEYS, entry.ts), as
	 * its source shows them (e.g. a person's `name`): the keys `simple` may name.
	 */
	readKeys?: readonly string[];
	/**
	 * The fields a user reads (about ten: ID, name, email, phone, stage, owner, dates), in output
	 * order: what Simplify keeps at version 2, and what a model reads by default. Every entity with
	 * Get Many names them; a key a record does not have is left out.
	 */
	simple?: readonly SimpleKey[];
	/**
	 * The Entities to Sync flag (spec 2.3) a connection must have turned on before the service lists
	 * these records: its reads are empty until then (the service's example: notes, tasks, calls).
	 */
	syncOptIn?: string;
}

/** An entity kind of the service (spec 2.3, and people). */
export interface EntitySpec {
	/** The kind's key: the sync flag's key and the prefix of its event names (`<kind>Created`). */
	kind: string;
	/** Offered in the credential's Entities to Sync. */
	syncFlag: boolean;
	/** The trigger offers `<kind>Created|Updated|Deleted`. */
	events: boolean;
	/** Where the node offers it as a resource; none yet for most kinds. */
	resource?: ResourceSpec;
}
