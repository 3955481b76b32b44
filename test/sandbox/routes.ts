/**
 * The service's endpoints per host and their handlers. Each host serves only its own endpoints; a
 * path parameter is the raw remainder after the prefix, exactly one segment, percent-decoded once
 * and never normalised.
 */
import * as crypto from 'crypto';

import { crmWebhookRoute } from './crmWebhooks';
import { EntityApi } from './crmEntities';
import type { Records } from './records';
import {
	AUTHORIZE_FIELDS,
	BORROWER_FIELDS,
	CREATE_CREDENTIAL_FIELDS,
	DOCUMENT_FIELDS,
	DOCUMENT_NOT_ACCEPTED,
	DOCUMENT_REQUIRED,
	PERSON_FIELDS,
	requireNonEmptyString,
	UPDATE_CREDENTIAL_FIELDS,
	validateFields,
	WEBHOOK_FIELDS,
} from './schema';
import {
	badRequest,
	HttpError,
	isJsonObject,
	jsonReply,
	nowIso,
	type HostName,
	type JsonObject,
	type PagingStyle,
	type Reply,
} from './types';

/** A request that passed auth, the credential-id header and body checks. */
export interface ApiRequest {
	host: HostName;
	method: string;
	query: Record<string, string>;
	body: JsonObject;
	/** The X-Service-Credential-Id (empty on the universal host). */
	credentialId: string;
	/** The decoded path parameter, or ''. */
	param: string;
	/** Changes the handler made, for webhook events once the answer is sent. */
	changes: RecordChange[];
}

export type Handler = (request: ApiRequest) => Reply;

export interface Route {
	methods: Record<string, Handler>;
	param?: string;
}

/** The webhook events a change through the API raises (contract: events.ts delivers them). */
export type ChangeEvent = 'peopleCreated' | 'borrowersUpdated' | 'documentsCreated';

export interface RecordChange {
	credentialId: string;
	event: ChangeEvent;
	/** The record's ID (a number where the connection's profile shows numeric IDs, profiles.ts). */
	resourceId: string | number;
	/** Where a receiver GETs the changed record, as a list of one. */
	uri: string;
}

export interface ApiEnvironment {
	records: Records;
	urls: Record<HostName, string>;
	paging(): PagingStyle;
	maxPageSize: number;
	/** Seeded rows of each published CRM entity (SandboxOptions.crmRows). */
	crmRows?: number;
	/** Key of the HMAC that makes `next` cursors unforgeable. */
	cursorKey: string;
}

/**
 * `limit` and `offset` of a list request, the limit clamped to the page size the service allows; a
 * `next` cursor, where the endpoint takes one, replaces `offset`.
 */
function listWindow(
	query: Record<string, string>,
	maxPageSize: number,
	cursorOffset?: (cursor: string) => number,
): { limit: number; offset: number } {
	let limit = 100;
	if (query.limit !== undefined) {
		if (!/^\d+$/.test(query.limit) || Number(query.limit) < 1)
			badRequest("query parameter 'limit' must be a positive integer");
		limit = Number(query.limit);
	}
	let offset = 0;
	if (cursorOffset && query.next !== undefined) {
		offset = cursorOffset(query.next);
	} else if (query.offset !== undefined) {
		if (!/^\d+$/.test(query.offset))
			badRequest("query parameter 'offset' must be a non-negative integer");
		offset = Number(query.offset);
	}
	return { limit: Math.min(limit, maxPageSize), offset };
}

/** The `ids` filter: comma-separated record ids, or undefined when not given. */
function idsFilter(query: Record<string, string>): string[] | undefined {
	if (query.ids === undefined) return undefined;
	const ids = query.ids.split(',').filter((id) => id !== '');
	if (ids.length === 0) badRequest("query parameter 'ids' must name at least one id");
	return ids;
}

function listBody(
	collection: string,
	offset: number,
	limit: number,
	total: number,
	records: string[],
	next: string | null = null,
	nextLink: string | null = null,
): string {
	const meta = { collection, offset, limit, total, next, nextLink };
	// Joins precomputed JSON strings: no re-serialisation of people per page.
	return `{"_metadata":${JSON.stringify(meta)},"${collection}":[${records.join(',')}]}`;
}

export { LOANS } from './entityTable';

export class Api {
	/** The published endpoints beyond the specification (crmEntities.ts). */
	private readonly entities: EntityApi;

	constructor(private readonly env: ApiEnvironment) {
		this.entities = new EntityApi({
			records: env.records,
			urls: env.urls,
			crmRows: env.crmRows,
			paged: (...args) => this.pagedList(...args),
		});
	}

	/** This host's endpoints at this path: the specification's, and the published ones beside them. */
	route(host: HostName, path: string): Route | undefined {
		const specified = this.specifiedRoute(host, path);
		const published = this.entities.route(host, path);
		if (!specified || !published) return specified ?? published;
		return { methods: { ...published.methods, ...specified.methods }, param: specified.param };
	}

	private specifiedRoute(host: HostName, path: string): Route | undefined {
		const param = (prefix: string): string | undefined => {
			if (!path.startsWith(prefix)) return undefined;
			const rest = path.slice(prefix.length);
			if (rest === '' || rest.includes('/')) return undefined;
			try {
				return decodeURIComponent(rest);
			} catch {
				throw new HttpError(400, 'path parameter is not valid percent-encoding');
			}
		};
		let id: string | undefined;
		switch (host) {
			case 'crm':
				if (path === '/api/people')
					return { methods: { GET: (r) => this.listPeople(r), POST: (r) => this.createPerson(r) } };
				if ((id = param('/api/people/')) !== undefined)
					return { methods: { PUT: (r) => this.updatePerson(r) }, param: id };
				return crmWebhookRoute(this.env, path, param);
			case 'universal':
				if (path === '/api/oauth/authorize-url')
					return { methods: { POST: (r) => this.authorizeUrl(r) } };
				if (path === '/api/credentials')
					return { methods: { POST: (r) => this.createCredential(r) } };
				if ((id = param('/api/credentials/')) !== undefined)
					return { methods: { PUT: (r) => this.updateCredential(r) }, param: id };
				return undefined;
			case 'los':
				if (path === '/api/borrowers')
					return { methods: { GET: (r) => this.listRecords(r, 'borrowers') } };
				if ((id = param('/api/borrowers/')) !== undefined)
					return { methods: { PUT: (r) => this.updateBorrower(r) }, param: id };
				if (path === '/api/documents')
					return {
						methods: {
							GET: (r) => this.listRecords(r, 'documents'),
							POST: (r) => this.createDocument(r),
						},
					};
				return undefined;
			case 'calendar':
				if ((id = param('/api/webhooks/')) !== undefined)
					return { methods: { PUT: (r) => this.updateWebhook(r) }, param: id };
				return undefined;
		}
	}

	private cursorFor(credentialId: string, offset: number): string {
		const signature = crypto
			.createHmac('sha256', this.env.cursorKey)
			.update(`${credentialId}:${offset}`)
			.digest('base64url')
			.slice(0, 16);
		return `c${offset.toString(36)}_${signature}`;
	}

	private offsetFromCursor(credentialId: string, cursor: string): number {
		const parts = /^c([0-9a-z]+)_[A-Za-z0-9_-]{16}$/.exec(cursor);
		const offset = parts ? parseInt(parts[1], 36) : NaN;
		if (!Number.isSafeInteger(offset) || this.cursorFor(credentialId, offset) !== cursor)
			throw new HttpError(400, "unknown 'next' cursor");
		return offset;
	}

	private listPeople(request: ApiRequest): Reply {
		const { records } = this.env;
		const connection = records.connection(request.credentialId);
		const ids = idsFilter(request.query);
		if (ids) {
			const { limit } = listWindow(request.query, this.env.maxPageSize);
			const found = ids
				.map((id) => records.personJson(connection, id))
				.filter((json): json is string => json !== undefined);
			return {
				status: 200,
				body: listBody('people', 0, limit, found.length, found.slice(0, limit)),
			};
		}
		const total = records.peopleCount(connection);
		return this.pagedList(
			request,
			'people',
			total,
			(from, to) => records.peopleJson(connection, from, to),
			`${this.env.urls.crm}/api/people`,
		);
	}

	/** One page of a list in the sandbox's paging style: offset, `next` cursor, or nextLink. */
	private pagedList(
		request: ApiRequest,
		collection: string,
		total: number,
		slice: (from: number, to: number) => string[],
		listUrl: string,
	): Reply {
		const { limit, offset } = listWindow(request.query, this.env.maxPageSize, (cursor) =>
			this.offsetFromCursor(request.credentialId, cursor),
		);
		const page = slice(offset, offset + limit);
		let next: string | null = null;
		let nextLink: string | null = null;
		const paging = this.env.paging();
		if (offset + page.length < total && paging !== 'offset') {
			next = this.cursorFor(request.credentialId, offset + page.length);
			if (paging === 'nextLink')
				nextLink = `${listUrl}?next=${encodeURIComponent(next)}&limit=${limit}`;
		}
		return { status: 200, body: listBody(collection, offset, limit, total, page, next, nextLink) };
	}

	private updatePerson(request: ApiRequest): Reply {
		validateFields(request.body, PERSON_FIELDS, 'a person');
		const { records } = this.env;
		const connection = records.connection(request.credentialId);
		const current = records.personJson(connection, request.param);
		if (current === undefined) throw new HttpError(404, 'person not found');
		const person = JSON.parse(current) as JsonObject;
		const at = nowIso();
		const changes: JsonObject = { ...request.body };
		delete changes.rating; // accepted, never returned (spec 2.1)
		// mergeTags=true adds the tags sent to the person's; otherwise they replace them.
		if (request.query.mergeTags === 'true' && Array.isArray(changes.tags)) {
			const had = Array.isArray(person.tags) ? (person.tags as string[]) : [];
			changes.tags = [...had, ...(changes.tags as string[]).filter((tag) => !had.includes(tag))];
		}
		const updated: JsonObject = {
			...person,
			...changes,
			id: request.param,
			updated: at,
			serviceUpdated: at,
		};
		if (request.body.firstName !== undefined || request.body.lastName !== undefined) {
			const first = typeof updated.firstName === 'string' ? updated.firstName : '';
			const last = typeof updated.lastName === 'string' ? updated.lastName : '';
			updated.name = `${first} ${last}`.trim();
		}
		const json = JSON.stringify(updated);
		records.replacePerson(connection, request.param, json);
		return { status: 200, body: json };
	}

	/** Borrowers or documents of the connection, filtered by `ids`, paged by offset. */
	private listRecords(request: ApiRequest, collection: 'borrowers' | 'documents'): Reply {
		const all = [...this.env.records.connection(request.credentialId)[collection].values()];
		const ids = idsFilter(request.query);
		const chosen = ids
			? ids
					.map((id) => all.find((record) => record.id === id))
					.filter((record) => record !== undefined)
			: all;
		const { limit, offset } = listWindow(request.query, this.env.maxPageSize);
		const page = chosen.slice(offset, offset + limit).map((record) => JSON.stringify(record));
		return { status: 200, body: listBody(collection, offset, limit, chosen.length, page) };
	}

	private createPerson(request: ApiRequest): Reply {
		validateFields(request.body, PERSON_FIELDS, 'a person');
		const { records } = this.env;
		const id = `p_${++records.counters.person}`;
		const at = nowIso();
		const echoed: JsonObject = { ...request.body };
		delete echoed.rating; // accepted, never returned (spec 2.1)
		const first = typeof request.body.firstName === 'string' ? request.body.firstName : '';
		const last = typeof request.body.lastName === 'string' ? request.body.lastName : '';
		const person: JsonObject = {
			id,
			name: `${first} ${last}`.trim(),
			...echoed,
			created: at,
			updated: at,
			serviceUpdated: at,
			originalIds: { crm: id },
			original: JSON.parse(JSON.stringify(request.body)) as JsonObject,
		};
		const json = JSON.stringify(person);
		records.addPerson(records.connection(request.credentialId), id, json);
		this.changed(request, 'peopleCreated', id, `${this.env.urls.crm}/api/people`);
		return { status: 200, body: json };
	}

	private authorizeUrl(request: ApiRequest): Reply {
		validateFields(request.body, AUTHORIZE_FIELDS, 'an authorization link request');
		const requestId = `req_${++this.env.records.counters.authRequest}`;
		return jsonReply(200, {
			url: `https://auth.example.test/authorize?request=${encodeURIComponent(requestId)}`,
			requestId,
		});
	}

	private createCredential(request: ApiRequest): Reply {
		validateFields(request.body, CREATE_CREDENTIAL_FIELDS, 'a credential');
		requireNonEmptyString(request.body, 'appKey');
		if (request.body.userInputs === undefined) badRequest("field 'userInputs' is required");
		const { records } = this.env;
		let id: string;
		do id = `cred-${++records.counters.credential}`;
		while (records.credentials.has(id));
		const data: JsonObject = {
			entitiesToSync: { ...((request.body.entitiesToSync as JsonObject | undefined) ?? {}) },
		};
		if (request.body.plan !== undefined) data.plan = request.body.plan;
		if (request.body.credentialKey !== undefined) data.credentialKey = request.body.credentialKey;
		// userInputs (often secrets) are deliberately not stored or returned.
		records.credentials.set(id, { id, createdAt: nowIso(), appKey: request.body.appKey, data });
		records.connection(id); // the new connection can be used with X-Service-Credential-Id at once
		return jsonReply(200, { id });
	}

	private updateCredential(request: ApiRequest): Reply {
		validateFields(request.body, UPDATE_CREDENTIAL_FIELDS, 'a credential update');
		if (request.body.entitiesToSync === undefined) badRequest("field 'entitiesToSync' is required");
		const credential = this.env.records.credentials.get(request.param);
		if (!credential) throw new HttpError(404, 'credential not found');
		const current = isJsonObject(credential.data.entitiesToSync)
			? credential.data.entitiesToSync
			: {};
		credential.data = {
			...credential.data,
			entitiesToSync: { ...current, ...(request.body.entitiesToSync as JsonObject) },
		};
		const out: JsonObject = {
			id: credential.id,
			createdAt: credential.createdAt,
			appKey: credential.appKey,
		};
		if (credential.label !== undefined) out.label = credential.label;
		out.data = credential.data;
		return jsonReply(200, out);
	}

	private updateBorrower(request: ApiRequest): Reply {
		validateFields(request.body, BORROWER_FIELDS, 'a borrower');
		const connection = this.env.records.connection(request.credentialId);
		const current = connection.borrowers.get(request.param);
		if (!current) throw new HttpError(404, 'borrower not found');
		const at = nowIso();
		const updated: JsonObject = {
			...current,
			...request.body,
			id: request.param,
			updated: at,
			serviceUpdated: at,
			original: { ...(isJsonObject(current.original) ? current.original : {}), ...request.body },
		};
		connection.borrowers.set(request.param, updated);
		this.changed(request, 'borrowersUpdated', request.param, `${this.env.urls.los}/api/borrowers`);
		return jsonReply(200, updated);
	}

	private createDocument(request: ApiRequest): Reply {
		for (const field of DOCUMENT_NOT_ACCEPTED) {
			if (field in request.body)
				badRequest(`field '${field}' is not accepted on create (it is set by the service)`);
		}
		validateFields(request.body, DOCUMENT_FIELDS, 'a document');
		for (const field of DOCUMENT_REQUIRED) requireNonEmptyString(request.body, field);
		const id = `doc_${++this.env.records.counters.document}`;
		const at = nowIso();
		const document: JsonObject = {
			id,
			name: null,
			category: null,
			status: null,
			type: null,
			fileUrl: null,
			mimeType: null,
			fileSignature: null,
			folderId: null,
			fileSize: null,
			created: at,
			updated: at,
			receivedDate: null,
			requiresSignature: false,
			isSigned: false,
			signedBy: [],
			signedDate: null,
			isActive: true,
			loanId: null,
			borrowerId: null,
			propertyId: null,
			transactionId: null,
			userId: null,
			...request.body,
			originalIds: { los: `los-${id}` },
			original: JSON.parse(JSON.stringify(request.body)) as JsonObject,
			serviceUpdated: at,
		};
		this.env.records.connection(request.credentialId).documents.set(id, document);
		this.changed(request, 'documentsCreated', id, `${this.env.urls.los}/api/documents`);
		return jsonReply(201, document);
	}

	private updateWebhook(request: ApiRequest): Reply {
		validateFields(request.body, WEBHOOK_FIELDS, 'a webhook');
		const connection = this.env.records.connection(request.credentialId);
		const current = connection.webhooks.get(request.param);
		if (!current) throw new HttpError(404, 'webhook not found');
		const updated: JsonObject = {
			...current,
			...request.body,
			id: request.param,
			status: 'active',
		};
		// A PUT that names both url and event makes the webhook a delivery target (seeded ones are not).
		if (typeof request.body.url === 'string' && typeof request.body.event === 'string')
			connection.deliveryTargets.add(request.param);
		connection.webhooks.set(request.param, updated);
		return jsonReply(200, updated);
	}

	private changed(
		request: ApiRequest,
		event: ChangeEvent,
		resourceId: string,
		listUrl: string,
	): void {
		request.changes.push({
			credentialId: request.credentialId,
			event,
			resourceId,
			uri: `${listUrl}?ids=${encodeURIComponent(resourceId)}`,
		});
	}
}
