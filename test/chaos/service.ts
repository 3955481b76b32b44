/**
 * The chaos service: one raw server on 127.0.0.1 behind all four hosts (each under its own path,
 * `/crm`, `/los`, …, so a request to the wrong host shows), a second origin that must receive nothing,
 * and a model of healthy answers: a write echoes its body, a GET of one record gives a person with
 * lists inside it, a list is served in pages of 3 by offset, `next` cursor or nextLink. Every request
 * draws a fault from the seeded generator; what was drawn, and what the node must output for each
 * successful answer, is logged for the invariants.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { startRawServer, type RawRequest, type RawServer } from '../hostile/raw-server';
import { drawFault, writeFault, type Fault, type Healthy, type RequestKind } from './faults';

export type Host = 'crm' | 'universal' | 'los' | 'calendar';

export const TOKEN = 'chaos/Token+=&<x>"-0123456789';
export const CLIENT_SECRET = 'chaos/Secret+=&<y>"-abcdefghij';
export type AuthMode = 'accessToken' | 'clientCredentials';

/** Values that break naive encoders: accents, CJK, emoji, quotes, markup, percent signs, slashes. */
export const TEXTS = [
	'Zoë Ångström',
	'東京 🎉',
	'quote " and \\ backslash',
	'<b>&amp;</b> & <i>',
	'100% A%41 a/b?c#d',
	'line\u2028separator',
	"O'Brien-Müller",
	'= +1 @sum',
];

/**
 * The connected system's shape of the records the service answers (test/sandbox/profiles.ts):
 * `default` string IDs with `created`/`updated`/`serviceUpdated`, `numeric` IDs (`"id": 11`) with
 * `created`/`updated` and booleans as 1/0, `uuid` string IDs with `createdAt`/`updatedAt`. Not given:
 * the answers of the scenarios written before the profiles (text IDs, no time fields).
 */
export type Profile = 'default' | 'numeric' | 'uuid';

const AT = '2024-01-01T00:00:00.000Z';

/** The service's own time fields on a record of the profile. */
export function stamps(profile: Profile | undefined): IDataObject {
	if (profile === 'default') return { created: AT, updated: AT, serviceUpdated: AT };
	if (profile === 'numeric') return { created: AT, updated: AT };
	if (profile === 'uuid') return { createdAt: AT, updatedAt: AT };
	return {};
}

/** The n-th UUID (version 4 layout) of the chaos service. */
export const uuidOf = (n: number) => `4f1c2a9e-0b7d-4c3e-9a51-${n.toString(16).padStart(12, '0')}`;

/** A record's ID as a path segment names it: a number where the profile's IDs are numbers. */
const idFrom = (profile: Profile | undefined, segment: string): number | string =>
	profile === 'numeric' && /^[1-9]\d{0,14}$/.test(segment) ? Number(segment) : segment;

/** A value as the profile writes it: every boolean inside as 1/0 where the profile says so. */
export function inProfile(profile: Profile | undefined, value: unknown): unknown {
	if (profile !== 'numeric') return value;
	if (typeof value === 'boolean') return value ? 1 : 0;
	if (Array.isArray(value)) return value.map((entry) => inProfile(profile, entry));
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [key, inProfile(profile, entry)]),
	);
}

export interface ListModel {
	host: Host;
	path: string;
	/** The key of the records in a page. */
	key: string;
	size: number;
	paging: 'offset' | 'next' | 'link';
	/**
	 * The connected system's shape (test/sandbox/profiles.ts): numeric IDs with booleans as 1/0, or
	 * UUIDs with createdAt; text IDs such as `people-1` when not given.
	 */
	profile?: Profile;
	/** The list's records, when a scenario gives them (the people Find and Create or Update look in). */
	records?: IDataObject[];
}

/** The most records the service puts in one page, whatever limit it is asked for. */
const PAGE_CAP = 3;

/** The n-th record's ID and service fields in the list's profile. */
function profiled(list: ListModel, n: number): IDataObject {
	const { profile } = list;
	const id =
		profile === 'numeric' ? 11 + n : profile === 'uuid' ? uuidOf(n + 1) : `${list.key}-${n + 1}`;
	return { id, active: inProfile(profile, n % 2 === 0) as boolean | number, ...stamps(profile) };
}

export function listRecords(list: ListModel): IDataObject[] {
	if (list.records) return list.records;
	return Array.from({ length: list.size }, (_v, n) => {
		const { id, ...service } = profiled(list, n);
		return {
			id,
			name: TEXTS[n % TEXTS.length],
			rank: n + 0.5,
			tags: [TEXTS[(n + 3) % TEXTS.length], 'plain'],
			...service,
			original: { source: 'chaos', row: n, raw: TEXTS[(n + 5) % TEXTS.length] },
		};
	});
}

function pageOf(
	list: ListModel,
	url: URL,
	base: string,
): { healthy: Healthy; hasNextLink: boolean } {
	const query = url.searchParams;
	const start =
		list.paging === 'next' && query.has('next')
			? Number(query.get('next')?.slice(1))
			: Number(query.get(query.has('start') ? 'start' : 'offset') ?? 0);
	const limit = Math.min(Number(query.get('limit') ?? PAGE_CAP), PAGE_CAP);
	const records = listRecords(list).slice(start, start + limit);
	const end = start + records.length;
	const hasNext = end < list.size;
	// Links are relative on every other page, absolute (this host's origin) on the rest.
	const link = `${end % 2 ? '' : new URL(base).origin}/${list.host}/api/${list.path}?start=${end}`;
	const metadata =
		list.paging === 'offset'
			? { offset: start, total: list.size }
			: !hasNext
				? {}
				: list.paging === 'next'
					? { next: `c${end}` }
					: { nextLink: link };
	return {
		hasNextLink: 'nextLink' in metadata,
		healthy: {
			status: '200 OK',
			body: { [list.key]: records, _metadata: metadata },
			records: (body) => body[list.key] as IDataObject[],
		},
	};
}

/** The person a GET of one record gives: lists inside it, none of them the answer. */
export function personRecord(id: string): IDataObject {
	return {
		id,
		tags: ['vip', TEXTS[id.length % TEXTS.length]],
		firstName: TEXTS[(id.length + 1) % TEXTS.length],
		emails: [{ value: 'ada@example.com', type: 'work' }],
		original: { source: 'chaos', tags: ['raw'] },
	};
}

const lastSegment = (url: URL) => decodeURIComponent(url.pathname.split('/').pop() ?? '');

/** A GET of one record: the person, in the profile's shape when one is given; one of `people` when given. */
function recordAnswer(url: URL, profile: Profile | undefined, people?: ListModel): IDataObject {
	const segment = lastSegment(url);
	const listed = people?.records?.find((record) => String(record.id) === segment);
	if (listed) return listed;
	if (!profile) return personRecord(segment);
	const record = { ...personRecord(segment), id: idFrom(profile, segment), active: true };
	return { ...(inProfile(profile, record) as IDataObject), ...stamps(profile) };
}

/** The ID of the `count`-th request's new record, as the profile writes IDs. */
const newId = (profile: Profile | undefined, count: number): number | string =>
	profile === 'numeric'
		? 1000 + count
		: profile === 'uuid'
			? uuidOf(0xc000 + count)
			: `new-${count}`;

function writeAnswer(
	request: RawRequest,
	url: URL,
	count: number,
	profile: Profile | undefined,
): Healthy {
	let sent: IDataObject = {};
	try {
		sent = JSON.parse(request.body || '{}') as IDataObject;
	} catch {
		// The invariants report a body that is not what the item gave.
	}
	const records = (body: IDataObject) => [body];
	const echo = inProfile(profile, sent) as IDataObject;
	const id = idFrom(profile, lastSegment(url));
	if (request.method === 'POST')
		return {
			status: '201 Created',
			body: { id: newId(profile, count), ...echo, ...stamps(profile) },
			records,
		};
	if (request.method === 'DELETE')
		return { status: '200 OK', body: { id, deleted: true }, records };
	return {
		status: '200 OK',
		body: { ...echo, id, version: count, ...stamps(profile) },
		records,
	};
}

/** One request at the service: the fault it drew, and for a success what the node must output. */
export interface Drawn {
	request: RawRequest;
	fault: Fault;
	/** The request it repeats, if it does: the item (`item 3`) or, for a page, its URL. */
	key: string;
	expected?: unknown;
	/**
	 * The client gave up on the answer unread (its deadline passed while the process was busy): it
	 * reset the connection with the answer in its buffer, or had closed its side before it was written.
	 */
	unread?: true;
}

/** What the service serves for the scenario under test. */
export interface Serving {
	kind: RequestKind;
	list?: ListModel;
	/** The shape of writes' and records' answers (a list's is its model's). */
	profile?: Profile;
	/** The item a request is for, where its URL and body do not name it (`item 3`): a numeric ID's path. */
	keyOf?: (request: RawRequest) => string | undefined;
	/**
	 * Person › Find and Create or Update: the people list, served in pages at GET `people`; a GET of
	 * one person answers that person; a POST or PUT is a write. `kind` does not apply.
	 */
	people?: ListModel;
}

/** What a request is to the service: the scenario's one kind, or for the people its method and path. */
function kindOfRequest(serving: Serving, request: RawRequest, url: URL): RequestKind {
	if (!serving.people) return serving.kind;
	if (request.method !== 'GET') return 'write';
	return url.pathname.split('/').length > 4 ? 'record' : 'page';
}

/** The request a request repeats: a page's or a person's URL, or the item its path or body names. */
function keyOfRequest(serving: Serving, request: RawRequest, kind: RequestKind): string {
	if (kind === 'page' || (kind === 'record' && serving.people)) return request.url;
	return serving.keyOf?.(request) ?? itemOf(safeDecode(request.url)) ?? itemOf(request.body) ?? '?';
}

const itemOf = (text: string): string | undefined => /item-(\d+)/.exec(text)?.[0];

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

export class ChaosService {
	service!: RawServer;
	foreign!: RawServer;
	drawn: Drawn[] = [];

	async start(): Promise<void> {
		[this.service, this.foreign] = await Promise.all([startRawServer(), startRawServer()]);
	}

	async close(): Promise<void> {
		await Promise.all([this.service.close(), this.foreign.close()]);
	}

	credentials(mode: AuthMode): ICredentialDataDecryptedObject {
		const at = (host: Host) => `${this.service.origin}/${host}`;
		const auth: ICredentialDataDecryptedObject =
			mode === 'accessToken'
				? { authentication: 'accessToken', accessToken: TOKEN }
				: {
						authentication: 'clientCredentials',
						clientId: 'client-1',
						clientSecret: CLIENT_SECRET,
						userId: 'tenant-1',
					};
		return {
			crmUrl: at('crm'),
			universalUrl: at('universal'),
			losUrl: at('los'),
			calendarUrl: at('calendar'),
			credentialId: 'cred-chaos',
			...auth,
		};
	}

	/** Forgets what came before: each run is checked on its own requests. */
	reset(): void {
		this.service.requests.length = 0;
		this.foreign.requests.length = 0;
		this.drawn = [];
	}

	/** From now on every request draws a fault for what `serving` says it is. */
	serve(serving: Serving, random: () => number): void {
		this.service.script((request, socket, count) => {
			const url = new URL(request.url, this.service.origin);
			const kind = kindOfRequest(serving, request, url);
			const list = serving.people ?? serving.list;
			const page = kind === 'page' && list ? pageOf(list, url, this.service.origin) : undefined;
			const healthy =
				page?.healthy ??
				(kind === 'record'
					? {
							status: '200 OK',
							body: recordAnswer(url, serving.profile, serving.people),
							records: (body: IDataObject) => [body],
						}
					: writeAnswer(request, url, count, serving.profile));
			const fault = drawFault(random, kind, page?.hasNextLink ?? false);
			const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
			const drawn: Drawn = { request, fault, key: keyOfRequest(serving, request, kind) };
			this.drawn.push(drawn);
			socket.on('error', () => (drawn.unread = true));
			// A client's close after reading comes a loop turn later at the earliest; one already there
			// when the request is read was sent before the answer.
			let answerOut = false;
			setImmediate(() => (answerOut = true));
			socket.once('end', () => {
				if (!answerOut) drawn.unread = true;
			});
			drawn.expected = writeFault(fault, socket, healthy, {
				token,
				count,
				foreign: this.foreign.origin,
			});
		});
	}

	/** Every request answered healthy with `{"ok": true}`: what a run after the chaos should meet. */
	serveHealthy(): void {
		this.service.script((_request, socket) =>
			socket.end(
				'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}',
			),
		);
	}

	/** Waits until the service has let go of every connection (a run's attempts close theirs). */
	async settled(ms = 4000): Promise<void> {
		const until = Date.now() + ms;
		while (this.service.openConnections() > 0 && Date.now() < until)
			await new Promise((resolve) => setTimeout(resolve, 20));
	}
}
