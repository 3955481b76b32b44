/**
 * The published endpoints beyond the specification (entityTable.ts lists them): list, get, create,
 * update and delete per entity, people get, delete and tags, list members, and borrower and
 * document reads and deletes. CRM errors answer `{ "errorMessage": ... }` as the published description
 * shows; a create answers 201; records are per connection and start from the table's seed rows.
 */
import { ENTITIES, parseFields, seedRecord, type EntityDef, type EntityOp } from './entityTable';
import { makeBorrower, type Connection, type EntityTable, type Records } from './records';
import type { ApiRequest, Handler, Route } from './routes';
import { BORROWER_CREATE_FIELDS, DOCUMENT_FIELDS, validateFields, type FieldType } from './schema';
import {
	badRequest,
	HttpError,
	jsonReply,
	nowIso,
	type HostName,
	type JsonObject,
	type Reply,
} from './types';

export interface EntityEnvironment {
	records: Records;
	urls: Record<HostName, string>;
	/** Seeded rows of each entity without a count of its own; 3 unless given. */
	crmRows?: number;
	/** One page of a list in the sandbox's paging style (routes.ts). */
	paged(
		request: ApiRequest,
		collection: string,
		total: number,
		slice: (from: number, to: number) => string[],
		listUrl: string,
	): Reply;
}

/** Where an entity's records live and how its bodies are checked. */
interface Kind {
	def: EntityDef;
	rows(connection: Connection): EntityTable;
	createTypes?: { types: Record<string, FieldType>; required: string[] };
	updateTypes?: Record<string, FieldType>;
	make(id: string, body: JsonObject): JsonObject;
}

const plainRecord = (id: string, body: JsonObject): JsonObject => ({
	...body,
	id,
	created: nowIso(),
});

/**
 * A refused request's answer: `{ "errorMessage": ... }` on the CRM host as crm-endpoints.md shows it;
 * the LOS and calendar pages show no error body, so those keep the sandbox's `{ "error": ... }`.
 */
function published(handler: Handler, host: HostName): Handler {
	const key = host === 'crm' ? 'errorMessage' : 'error';
	return (request) => {
		try {
			return handler(request);
		} catch (error) {
			if (!(error instanceof HttpError)) throw error;
			return {
				status: error.status,
				body: JSON.stringify({ [key]: error.message }),
				headers: error.headers,
			};
		}
	};
}

function decodeSegment(raw: string): string {
	try {
		return decodeURIComponent(raw);
	} catch {
		throw new HttpError(400, 'path parameter is not valid percent-encoding');
	}
}

/** Checks a create or update body: required fields present (create), known fields of the right type. */
function checkBody(kind: Kind, body: JsonObject, creating: boolean): void {
	const what = `a ${kind.def.noun}`;
	if (creating && kind.createTypes) {
		for (const field of kind.createTypes.required) {
			const value = body[field];
			if (value === undefined || value === null) badRequest(`field '${field}' is required`);
			if (typeof value === 'string' && value.trim() === '')
				badRequest(`field '${field}' must be a non-empty string`);
		}
		validateFields(body, kind.createTypes.types, what);
	} else if (!creating && kind.updateTypes) {
		validateFields(body, kind.updateTypes, what);
	}
}

export class EntityApi {
	private readonly kinds = new Map<string, Kind>();

	constructor(private readonly env: EntityEnvironment) {
		for (const def of ENTITIES) this.addKind(def);
		// Borrowers and documents keep the records the specification's endpoints use.
		const existing = (path: string, noun: string, ops: EntityOp[]): EntityDef => ({
			host: 'los',
			path,
			listKey: path,
			noun,
			idPrefix: path === 'borrowers' ? 'borrower' : 'doc',
			ops,
			seed: () => ({}),
		});
		this.kinds.set('los borrowers', {
			def: existing('borrowers', 'borrower', ['get', 'create', 'delete']),
			rows: (connection) => this.wrapMap(connection, 'borrowers', connection.borrowers),
			createTypes: { types: BORROWER_CREATE_FIELDS, required: [] },
			make: (id, body) => makeBorrower(id, body),
		});
		this.kinds.set('los documents', {
			def: existing('documents', 'document', ['get', 'update', 'delete']),
			rows: (connection) => this.wrapMap(connection, 'documents', connection.documents),
			updateTypes: DOCUMENT_FIELDS,
			make: plainRecord,
		});
	}

	private addKind(def: EntityDef): void {
		const create = def.create === undefined ? undefined : parseFields(def.create);
		const update = def.update === undefined ? create : parseFields(def.update);
		this.kinds.set(`${def.host} ${def.path}`, {
			def,
			rows: (connection) => this.table(connection, def),
			createTypes: create,
			updateTypes: update?.types,
			make: plainRecord,
		});
	}

	/** The entity's table on this connection, seeded on first use. */
	private table(connection: Connection, def: EntityDef): EntityTable {
		let table = connection.entities.get(def.path);
		if (!table) {
			table = { rows: new Map(), created: 0 };
			for (let n = 1; n <= (def.seedCount ?? this.env.crmRows ?? 3); n++) {
				const record = seedRecord(def, n);
				table.rows.set(record.id as string, record);
			}
			connection.entities.set(def.path, table);
		}
		return table;
	}

	/** A table view of a map the specification's endpoints already keep (its id counter kept apart). */
	private wrapMap(connection: Connection, key: string, rows: Map<string, JsonObject>): EntityTable {
		let table = connection.entities.get(key);
		if (!table) {
			table = { rows, created: 0 };
			connection.entities.set(key, table);
		}
		return table;
	}

	/** The endpoints this module adds at this path, or undefined. */
	route(host: HostName, path: string): Route | undefined {
		if (!path.startsWith('/api/')) return undefined;
		const [name, rawId, ...rest] = path.slice('/api/'.length).split('/');
		if (rawId === '') return undefined;
		if (host === 'crm' && name === 'people' && rawId !== undefined)
			return this.personRoute(decodeSegment(rawId), rest);
		const kind = this.kinds.get(`${host} ${name}`);
		if (!kind) return undefined;
		const ops = kind.def.ops;
		const methods: Record<string, Handler> = {};
		if (rawId === undefined) {
			if (ops.includes('list')) methods.GET = (r) => this.list(kind, r);
			if (ops.includes('create')) methods.POST = (r) => this.create(kind, r);
		} else if (rest.length === 0) {
			if (ops.includes('get')) methods.GET = (r) => jsonReply(200, this.find(kind, r));
			if (ops.includes('update')) methods.PUT = (r) => this.update(kind, r);
			if (ops.includes('delete')) methods.DELETE = (r) => this.remove(kind, r);
		} else if (name === 'lists' && rest.length === 1 && rest[0] === 'people') {
			methods.POST = (r) => this.members(kind, r, true);
			methods.DELETE = (r) => this.members(kind, r, false);
		}
		const param = rawId === undefined ? undefined : decodeSegment(rawId);
		return this.withErrors(methods, kind.def.host, param);
	}

	private withErrors(
		methods: Record<string, Handler>,
		host: HostName,
		param?: string,
	): Route | undefined {
		if (Object.keys(methods).length === 0) return undefined;
		const wrapped = Object.fromEntries(
			Object.entries(methods).map(([method, handler]) => [method, published(handler, host)]),
		);
		return { methods: wrapped, param };
	}

	private personRoute(id: string, rest: string[]): Route | undefined {
		const methods: Record<string, Handler> = {};
		if (rest.length === 0) {
			methods.GET = (r) => ({ status: 200, body: this.personJson(r) });
			methods.DELETE = (r) => this.deletePerson(r);
		} else if (rest.length === 2 && rest[0] === 'tags' && ['apply', 'delete'].includes(rest[1])) {
			methods.POST = (r) => this.tags(r, rest[1] === 'apply');
		}
		return this.withErrors(methods, 'crm', id);
	}

	private list(kind: Kind, request: ApiRequest): Reply {
		const rows = [...kind.rows(this.connection(request)).rows.values()];
		const json = rows.map((row) => JSON.stringify(row));
		return this.env.paged(
			request,
			kind.def.listKey,
			json.length,
			(from, to) => json.slice(from, to),
			`${this.env.urls[kind.def.host]}/api/${kind.def.path}`,
		);
	}

	private find(kind: Kind, request: ApiRequest): JsonObject {
		const row = kind.rows(this.connection(request)).rows.get(request.param);
		if (!row) throw new HttpError(404, `${kind.def.noun} not found`);
		return row;
	}

	private create(kind: Kind, request: ApiRequest): Reply {
		checkBody(kind, request.body, true);
		const table = kind.rows(this.connection(request));
		let id: string;
		do id = `${kind.def.idPrefix}-${++table.created}`;
		while (table.rows.has(id));
		const record = kind.make(id, request.body);
		table.rows.set(id, record);
		return jsonReply(201, record);
	}

	private update(kind: Kind, request: ApiRequest): Reply {
		checkBody(kind, request.body, false);
		const current = this.find(kind, request);
		const updated = { ...current, ...request.body, id: request.param, updated: nowIso() };
		kind.rows(this.connection(request)).rows.set(request.param, updated);
		return jsonReply(200, updated);
	}

	private remove(kind: Kind, request: ApiRequest): Reply {
		this.find(kind, request);
		kind.rows(this.connection(request)).rows.delete(request.param);
		return jsonReply(200, {});
	}

	/** POST or DELETE /api/lists/{id}/people: adds or removes people from the list; 200 with no body, as published. */
	private members(kind: Kind, request: ApiRequest, add: boolean): Reply {
		const ids = this.stringList(request.body, 'personIds', 'a list membership change');
		const list = this.find(kind, request);
		const current = Array.isArray(list.peopleParticipantIds)
			? (list.peopleParticipantIds as string[])
			: [];
		const next = add
			? [...current, ...ids.filter((id) => !current.includes(id))]
			: current.filter((id) => !ids.includes(id));
		const updated = { ...list, peopleParticipantIds: next, updated: nowIso() };
		kind.rows(this.connection(request)).rows.set(request.param, updated);
		return { status: 200, body: '' };
	}

	private stringList(body: JsonObject, field: string, what: string): string[] {
		if (body[field] === undefined) badRequest(`field '${field}' is required`);
		validateFields(body, { [field]: 'stringArray' }, what);
		return body[field] as string[];
	}

	private personJson(request: ApiRequest): string {
		const json = this.env.records.personJson(this.connection(request), request.param);
		if (json === undefined) throw new HttpError(404, 'person not found');
		return json;
	}

	private deletePerson(request: ApiRequest): Reply {
		if (!this.env.records.deletePerson(this.connection(request), request.param))
			throw new HttpError(404, 'person not found');
		return jsonReply(200, {});
	}

	/** POST /api/people/{id}/tags/apply or /delete: adds or removes tags; 200 with no body, as published. */
	private tags(request: ApiRequest, apply: boolean): Reply {
		const tags = this.stringList(request.body, 'tags', 'a tag change');
		const person = JSON.parse(this.personJson(request)) as JsonObject;
		const current = Array.isArray(person.tags) ? (person.tags as string[]) : [];
		person.tags = apply
			? [...current, ...tags.filter((tag) => !current.includes(tag))]
			: current.filter((tag) => !tags.includes(tag));
		this.env.records.replacePerson(this.connection(request), request.param, JSON.stringify(person));
		return { status: 200, body: '' };
	}

	private connection(request: ApiRequest): Connection {
		return this.env.records.connection(request.credentialId);
	}
}
