/**
 * Connection profiles: the shapes the service's records take on different connected systems, chosen
 * by the connection (X-Service-Credential-Id). The service's own example application logs, on the
 * same `GET /people`, one account answering numeric IDs (`"id": 11`), `created`/`updated` and
 * `isPrimary: 1`, another UUID strings with `createdAt`/`updatedAt`; its appointment create answers a
 * bad field with `422 {"errors": [{"path", "message"}]}`; and reads of notes, tasks and calls come
 * back empty unless the connection opted in through `entitiesToSync`.
 *
 * - `default`: the sandbox as it always answered (string IDs such as `p_1`, `created`/`updated`,
 *   `true`/`false`, 400 `{errorMessage}`), and no opt-in rule. Every connection not declared in
 *   `SandboxOptions.connections` has it.
 * - `numeric`: every ID in a record (`id`, `…Id`, `…Ids`) a number, in answers and in the paths,
 *   `ids` filters and bodies it accepts; `created`/`updated`; booleans as 1/0.
 * - `uuid`: every such ID a UUID string; `createdAt`/`updatedAt` instead of `created`/`updated`.
 * A declared connection (any profile) also answers a refused CRM create or update with 422
 * `{errors: [{path, message}]}`, and gets empty lists (and 404 on Get) of notes, tasks and calls
 * unless its credential's `entitiesToSync` turns that kind on (declared, or by Credential › Update).
 *
 * Records are kept in the default shape; a profile is a view: IDs coming in are mapped back to the
 * stored ones, answers going out are rewritten. The mapping is one per sandbox, made on first sight.
 */
import * as crypto from 'crypto';

import type { Records } from './records';
import type { RecordChange } from './routes';
import { isJsonObject, jsonReply, type HostName, type JsonObject, type Reply } from './types';

export type ProfileName = 'default' | 'numeric' | 'uuid';
export const PROFILE_NAMES: readonly ProfileName[] = ['default', 'numeric', 'uuid'];

/** A connection a sandbox starts with beside its credentialIds, and how its records look. */
export interface ProfileConnection {
	profile: ProfileName;
	/** The credential's entitiesToSync at the start (unset kinds are off). */
	entitiesToSync?: Record<string, boolean>;
}

/** The kinds whose reads are empty unless the connection opted in (the service's example). */
export const OPT_IN_KINDS: readonly string[] = ['notes', 'tasks', 'calls'];

const isIdKey = (key: string) => key === 'id' || /[a-z]Id$/.test(key);
const isIdListKey = (key: string) => /[a-z]Ids$/.test(key);

/** A request as the profile layer sees it (requests.ts). */
export interface ProfiledCall {
	host: HostName;
	method: string;
	path: string;
	query: Record<string, string>;
	param: string;
	body: JsonObject;
}

export class Profiles {
	private readonly shown = new Map<string, number | string>();
	private readonly stored = new Map<string, string>();
	private nextNumber = 0;

	constructor(
		private readonly declared: Record<string, ProfileConnection>,
		private readonly records: Records,
	) {}

	/** The declared connections' ids, to be known as credentials. */
	get connectionIds(): string[] {
		return Object.keys(this.declared);
	}

	profileOf(credentialId: string): ProfileName {
		return this.declared[credentialId]?.profile ?? 'default';
	}

	isDeclared(credentialId: string): boolean {
		return credentialId in this.declared;
	}

	/** Sets each declared credential's starting entitiesToSync (after every reseed). */
	seed(): void {
		for (const [id, connection] of Object.entries(this.declared)) {
			const credential = this.records.credentials.get(id);
			if (credential) credential.data = { entitiesToSync: { ...connection.entitiesToSync } };
			this.records.connection(id).seededPeople = this.records.seededCount;
		}
	}

	reset(): void {
		this.shown.clear();
		this.stored.clear();
		this.nextNumber = 0;
	}

	/** How a stored ID appears to a connection of this profile. */
	shownId(profile: ProfileName, id: string): number | string {
		if (profile === 'default') return id;
		const key = `${profile} ${id}`;
		let value = this.shown.get(key);
		if (value === undefined) {
			value = profile === 'numeric' ? ++this.nextNumber : uuidOf(id);
			this.shown.set(key, value);
			this.stored.set(`${profile} ${String(value)}`, id);
		}
		return value;
	}

	/** The stored ID behind an ID a connection of this profile sent (unknown ones as they came). */
	storedId(profile: ProfileName, value: unknown): unknown {
		if (profile === 'default' || (typeof value !== 'string' && typeof value !== 'number'))
			return value;
		return this.stored.get(`${profile} ${String(value)}`) ?? String(value);
	}

	/** Whether this connection's reads of a kind come back empty (not opted in). */
	hidden(credentialId: string, kind: string): boolean {
		if (!this.isDeclared(credentialId) || !OPT_IN_KINDS.includes(kind)) return false;
		const flags = this.records.credentials.get(credentialId)?.data.entitiesToSync;
		return !(isJsonObject(flags) && flags[kind] === true);
	}

	/** The request with its IDs as stored; or the answer itself when the opt-in rule decides it. */
	incoming(credentialId: string, call: ProfiledCall): ProfiledCall | Reply {
		const [kind, id] = call.path.slice('/api/'.length).split('/');
		if (call.host === 'crm' && call.method === 'GET' && this.hidden(credentialId, kind)) {
			if (id !== undefined) return jsonReply(404, { errorMessage: 'not found' });
			const meta = { collection: kind, offset: 0, limit: 0, total: 0, next: null, nextLink: null };
			return jsonReply(200, { _metadata: meta, [kind]: [] });
		}
		const profile = this.profileOf(credentialId);
		if (profile === 'default') return call;
		const query = { ...call.query };
		if (query.ids !== undefined)
			query.ids = query.ids
				.split(',')
				.map((one) => String(this.storedId(profile, one)))
				.join(',');
		const body = this.mapIds(call.body, (value) => this.storedId(profile, value)) as JsonObject;
		const param = call.param === '' ? '' : String(this.storedId(profile, call.param));
		return { ...call, query, body, param };
	}

	/** The answer as this connection's profile shows it; a refused CRM write as 422 `{errors}`. */
	outgoing(credentialId: string, call: ProfiledCall, reply: Reply): Reply {
		if (!this.isDeclared(credentialId)) return reply;
		const write = call.method === 'POST' || call.method === 'PUT';
		if (reply.status === 400 && write && call.host === 'crm') return fieldErrors(reply);
		const profile = this.profileOf(credentialId);
		if (profile === 'default' || reply.status >= 300 || reply.body === '') return reply;
		const answer = JSON.parse(reply.body) as unknown;
		return { ...reply, body: JSON.stringify(this.shape(profile, answer)) };
	}

	/** A change's event as the connection's profile names the record: its ID, and in the uri's `ids`. */
	shownChange(change: RecordChange): RecordChange {
		const profile = this.profileOf(change.credentialId);
		if (profile === 'default') return change;
		const resourceId = this.shownId(profile, String(change.resourceId));
		const uri = new URL(change.uri);
		uri.searchParams.set('ids', String(resourceId));
		return { ...change, resourceId, uri: uri.href };
	}

	/** A record (or a list answer) as the profile shows it; `_metadata` is left as it is. */
	shape(profile: ProfileName, value: unknown): unknown {
		const ids = this.mapIds(value, (id) =>
			typeof id === 'string' ? this.shownId(profile, id) : id,
		);
		return rewrite(ids, profile);
	}

	/** Every ID (`id`, `…Id`, each of `…Ids`) in a value mapped; `_metadata` and `originalIds` kept. */
	private mapIds(value: unknown, map: (id: unknown) => unknown, key = ''): unknown {
		if (Array.isArray(value))
			return value.map((entry) => (isIdListKey(key) ? map(entry) : this.mapIds(entry, map, '')));
		if (!isJsonObject(value)) return isIdKey(key) && value !== null ? map(value) : value;
		if (key === '_metadata' || key === 'originalIds' || key === 'original') return value;
		const out: JsonObject = {};
		for (const [name, entry] of Object.entries(value)) out[name] = this.mapIds(entry, map, name);
		return out;
	}
}

/** Time keys renamed (uuid) and booleans as 1/0 (numeric), everywhere but `_metadata`. */
function rewrite(value: unknown, profile: ProfileName): unknown {
	if (Array.isArray(value)) return value.map((entry) => rewrite(entry, profile));
	if (typeof value === 'boolean' && profile === 'numeric') return value ? 1 : 0;
	if (!isJsonObject(value)) return value;
	const out: JsonObject = {};
	for (const [name, entry] of Object.entries(value)) {
		const renamed =
			profile === 'uuid' && (name === 'created' || name === 'updated') ? `${name}At` : name;
		out[renamed] = name === '_metadata' ? entry : rewrite(entry, profile);
	}
	return out;
}

/** `{errorMessage: "field 'title' is required"}` as `422 {errors: [{path: "title", message}]}`. */
function fieldErrors(reply: Reply): Reply {
	const parsed = JSON.parse(reply.body) as JsonObject;
	const text = String(parsed.errorMessage ?? parsed.error ?? '');
	const unknown = /^unknown field '([^']+)'/.exec(text);
	const named = unknown ?? /^field '([^']+)' (.*)$/.exec(text);
	if (!named) return reply;
	const message = unknown ? 'is not a known field' : named[2];
	return jsonReply(422, { errors: [{ path: named[1], message }] });
}

/** A UUID (version 4 layout) from a text, the same every run. */
function uuidOf(text: string): string {
	const hex = crypto.createHash('sha256').update(text).digest('hex');
	const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
