/**
 * Sandbox: an in-memory fake of the whole Integration Service API (four hosts: crm, universal, los,
 * calendar), built on node's `http`, `crypto` and `url` only.
 *
 * Why it exists: the real service cannot be reached from tests, so this server checks what the real
 * one would check (auth, the credential-id header, content type, field types) and lets tests inject
 * faults (status codes with Retry-After, dropped connections, delays, malformed bodies) to exercise
 * the node's retry and error handling. Everything it received is kept in `requests` for assertions.
 *
 * Behaviour follows /work/shared/spec/interface-specification.md and decisions.md; where both are
 * silent the choices are noted inline.
 */
import * as http from 'http';
import * as crypto from 'crypto';
import type { Socket } from 'net';
import { URLSearchParams } from 'url';

export type HostName = 'crm' | 'universal' | 'los' | 'calendar';
export type PagingStyle = 'nextLink' | 'next' | 'offset';

export interface SandboxOptions {
	token?: string;
	jwtSecret?: string;
	jwtIssuer?: string;
	credentialIds?: string[];
	/** People seeded under the FIRST credential id only. */
	people?: number;
	seed?: number;
	latencyMs?: number;
	paging?: PagingStyle;
	maxPageSize?: number;
	host?: string;
	ports?: Partial<Record<HostName, number>>;
}

export interface RecordedRequest {
	seq: number;
	host: HostName;
	method: string;
	/** Raw request-target as received, e.g. '/api/borrowers/a%2Fb?x=1'. */
	url: string;
	/** Raw path without query, NOT decoded. */
	path: string;
	query: Record<string, string>;
	/** Lower-cased names, values as received. */
	headers: Record<string, string>;
	rawBody: string;
	body: unknown;
	/** What the sandbox answered, or 0 when the connection was dropped (or the client left first). */
	status: number;
	fault?: string;
}

export interface FaultSpec {
	status?: number;
	retryAfter?: string;
	body?: string;
	delayMs?: number;
	drop?: boolean;
	malformed?: boolean;
	html?: boolean;
	afterProcessing?: boolean;
	count?: number;
	ratio?: number;
	match?: { host?: HostName; method?: string; pathPrefix?: string };
}

export interface Sandbox {
	urls: Record<HostName, string>;
	token: string;
	jwtSecret: string;
	jwtIssuer: string;
	credentialIds: string[];
	defaultCredentialId: string;
	requests: RecordedRequest[];
	inject(fault: FaultSpec): void;
	clearFaults(): void;
	reset(): void;
	count(kind: RecordKind, credentialId?: string): number;
	people(credentialId?: string): Record<string, unknown>[];
	addBorrower(credentialId: string, id: string, fields?: Record<string, unknown>): void;
	addWebhook(credentialId: string, id: string, fields?: Record<string, unknown>): void;
	setPaging(style: PagingStyle): void;
	setLatency(ms: number): void;
	close(): Promise<void>;
}

export type RecordKind = 'people' | 'credentials' | 'borrowers' | 'documents' | 'webhooks';

export const HOST_NAMES: readonly HostName[] = ['crm', 'universal', 'los', 'calendar'];

/** The 27 entity kinds of spec 2.3; nothing else is accepted inside `entitiesToSync`. */
export const ENTITY_KINDS: readonly string[] = [
	'appointments', 'borrowers', 'calls', 'calendars', 'calendarEvents', 'customFields', 'events', 'lists',
	'loans', 'notes', 'offices', 'properties', 'smartLists', 'tasks', 'taskTemplates', 'teams',
	'textMessages', 'emailMessages', 'appointmentOutcomes', 'appointmentTypes', 'stages', 'emailThreads',
	'documents', 'sources', 'timeframes', 'peopleRelationships', 'ponds',
];

// ---------------------------------------------------------------------------------------------
// JWT (HS512), used both to verify incoming tokens and by tests to forge expired/bad ones.
// ---------------------------------------------------------------------------------------------

export function signJwtForTest(claims: Record<string, unknown>, secret: string): string {
	const header = Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url');
	const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
	const signature = crypto.createHmac('sha512', secret).update(`${header}.${payload}`).digest('base64url');
	return `${header}.${payload}.${signature}`;
}

/** Constant-time string comparison; hashing first makes the lengths equal so nothing leaks. */
function safeEqual(a: string, b: string): boolean {
	const ha = crypto.createHash('sha256').update(a).digest();
	const hb = crypto.createHash('sha256').update(b).digest();
	return crypto.timingSafeEqual(ha, hb);
}

function decodeJsonSegment(segment: string): unknown {
	try {
		return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
	} catch {
		return undefined;
	}
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** mulberry32: tiny deterministic PRNG, so seeded data and ratio faults repeat run to run. */
function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Mixes (seed, index) into a well-spread 32-bit seed (murmur3 finaliser): neighbours must not correlate. */
function mix32(seed: number, index: number): number {
	let h = (seed ^ Math.imul(index, 0x9e3779b1)) >>> 0;
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

const badRequest = (message: string): never => {
	throw new HttpError(400, message);
};

interface Reply {
	status: number;
	body: string;
	contentType?: string;
	headers?: Record<string, string>;
}

const jsonReply = (status: number, value: unknown): Reply => ({ status, body: JSON.stringify(value) });

const nowIso = (): string => new Date().toISOString();

// ---------------------------------------------------------------------------------------------
// Field validation: a small type table per resource, checked strictly (unknown fields rejected) so
// that a node sending a misspelt or wrongly-typed field fails loudly in tests instead of silently.
// ---------------------------------------------------------------------------------------------

type FieldType =
	| 'string'
	| 'number'
	| 'boolean'
	| 'object'
	| 'stringArray'
	| 'contactArray'
	| 'addressArray'
	| 'objectArray'
	| 'consent'
	| 'entities'
	| 'any';

const PERSON_FIELDS: Record<string, FieldType> = {
	firstName: 'string', lastName: 'string', timezone: 'string', stage: 'string', stageId: 'string',
	assignedUserId: 'string', assignedPondId: 'string', officeId: 'string', timeframeId: 'string',
	emails: 'contactArray', phones: 'contactArray', addresses: 'addressArray', tags: 'stringArray',
	source: 'string', systemSource: 'string', averageBeds: 'number', averagePrice: 'number',
	birthday: 'string', rating: 'number', lastActivity: 'string', lastActivityType: 'string',
	contactTypes: 'stringArray', jobTitle: 'string', companyName: 'string', communicationsConsent: 'consent',
	sourceId: 'string',
};

const BORROWER_FIELDS: Record<string, FieldType> = {
	emails: 'contactArray', name: 'string', type: 'string', phones: 'contactArray',
	addresses: 'addressArray', taxId: 'string', bio: 'object',
};

const DOCUMENT_REQUIRED = ['name', 'category', 'status', 'type', 'fileUrl', 'mimeType', 'fileSignature', 'folderId'];
const DOCUMENT_NOT_ACCEPTED = ['id', 'originalIds', 'original', 'serviceUpdated'];
const DOCUMENT_FIELDS: Record<string, FieldType> = {
	...Object.fromEntries(DOCUMENT_REQUIRED.map((f) => [f, 'string' as FieldType])),
	fileSize: 'number', created: 'string', updated: 'string', receivedDate: 'string',
	requiresSignature: 'boolean', isSigned: 'boolean', signedBy: 'objectArray', signedDate: 'string',
	isActive: 'boolean', loanId: 'string', borrowerId: 'string', propertyId: 'string',
	transactionId: 'string', userId: 'string',
};

const WEBHOOK_FIELDS: Record<string, FieldType> = { url: 'string', event: 'string', filters: 'object' };

const AUTHORIZE_FIELDS: Record<string, FieldType> = {
	appKey: 'string', plan: 'string', customParams: 'object', entitiesToSync: 'entities', returnURI: 'string',
};

const CREATE_CREDENTIAL_FIELDS: Record<string, FieldType> = {
	appKey: 'string', userInputs: 'object', credentialKey: 'string', plan: 'string', entitiesToSync: 'entities',
};

const UPDATE_CREDENTIAL_FIELDS: Record<string, FieldType> = { entitiesToSync: 'entities' };

const CONTACT_KEYS: Record<string, 'string' | 'boolean'> = {
	value: 'string', type: 'string', status: 'string', isPrimary: 'boolean',
};
const ADDRESS_KEYS = ['type', 'street', 'city', 'state', 'code', 'country'];
const CONSENT_KEYS = ['email', 'call', 'text', 'massEmail', 'postal', 'visit'];

function checkType(name: string, value: unknown, type: FieldType): void {
	const fail = (what: string): never => badRequest(`field '${name}' must be ${what}`);
	switch (type) {
		case 'any':
			return;
		case 'string':
			if (typeof value !== 'string') fail('a string');
			return;
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value)) fail('a number');
			return;
		case 'boolean':
			if (typeof value !== 'boolean') fail('a boolean');
			return;
		case 'object':
			if (!isObj(value)) fail('an object');
			return;
		case 'stringArray':
			if (!Array.isArray(value)) fail('an array of strings');
			(value as unknown[]).forEach((v, i) => {
				if (typeof v !== 'string') badRequest(`field '${name}[${i}]' must be a string`);
			});
			return;
		case 'objectArray':
			if (!Array.isArray(value)) fail('an array of objects');
			(value as unknown[]).forEach((v, i) => {
				if (!isObj(v)) badRequest(`field '${name}[${i}]' must be an object`);
			});
			return;
		case 'contactArray':
			if (!Array.isArray(value)) fail('an array of {value, type, status, isPrimary} objects');
			(value as unknown[]).forEach((v, i) => {
				if (!isObj(v)) badRequest(`field '${name}[${i}]' must be an object`);
				for (const [k, kv] of Object.entries(v as Obj)) {
					const want = CONTACT_KEYS[k];
					if (!want) badRequest(`field '${name}[${i}].${k}' is not a known field (value, type, status, isPrimary)`);
					if (typeof kv !== want) badRequest(`field '${name}[${i}].${k}' must be a ${want}`);
				}
			});
			return;
		case 'addressArray':
			if (!Array.isArray(value)) fail('an array of address objects');
			(value as unknown[]).forEach((v, i) => {
				if (!isObj(v)) badRequest(`field '${name}[${i}]' must be an object`);
				for (const [k, kv] of Object.entries(v as Obj)) {
					if (!ADDRESS_KEYS.includes(k)) {
						badRequest(`field '${name}[${i}].${k}' is not a known address field (${ADDRESS_KEYS.join(', ')})`);
					}
					if (typeof kv !== 'string') badRequest(`field '${name}[${i}].${k}' must be a string`);
				}
			});
			return;
		case 'consent':
			if (!isObj(value)) fail('an object of booleans');
			for (const [k, kv] of Object.entries(value as Obj)) {
				if (!CONSENT_KEYS.includes(k)) badRequest(`field '${name}.${k}' is not a known consent flag (${CONSENT_KEYS.join(', ')})`);
				if (typeof kv !== 'boolean') badRequest(`field '${name}.${k}' must be a boolean`);
			}
			return;
		case 'entities':
			if (!isObj(value)) fail('an object of boolean entity flags');
			for (const [k, kv] of Object.entries(value as Obj)) {
				if (!ENTITY_KINDS.includes(k)) badRequest(`field '${name}.${k}' is not a known entity kind`);
				if (typeof kv !== 'boolean') badRequest(`field '${name}.${k}' must be a boolean`);
			}
			return;
	}
}

function validateFields(body: Obj, spec: Record<string, FieldType>, what: string): void {
	for (const [key, value] of Object.entries(body)) {
		const type = spec[key];
		if (!type) badRequest(`unknown field '${key}' for ${what}`);
		checkType(key, value, type);
	}
}

function requireNonEmptyString(body: Obj, field: string): void {
	const v = body[field];
	if (v === undefined) badRequest(`field '${field}' is required`);
	if (typeof v !== 'string' || v.trim() === '') badRequest(`field '${field}' must be a non-empty string`);
}

// ---------------------------------------------------------------------------------------------
// Seeded people: deterministic from the seed. Each person's JSON is computed once so page bodies
// are built by joining strings (the benchmark lists 50,000 people).
// ---------------------------------------------------------------------------------------------

const FIRST = ['Ada', 'Ben', 'Cleo', 'Dan', 'Eva', 'Finn', 'Gia', 'Hugo', 'Iris', 'Jon', 'Kara', 'Leo', 'Mia', 'Nils', 'Olga', 'Paul', 'Quin', 'Rosa', 'Sam', 'Tara', 'Uma', 'Vic', 'Wes', 'Xena', 'Yuri', 'Zoe'];
const LAST = ['Adams', 'Brown', 'Clark', 'Diaz', 'Evans', 'Fox', 'Garcia', 'Hill', 'Ito', 'Jones', 'King', 'Lopez', 'Moore', 'Nguyen', 'Ortiz', 'Patel', 'Quinn', 'Reed', 'Smith', 'Turner', 'Usman', 'Vega', 'White', 'Young', 'Zhang'];
const CITIES: [string, string, string][] = [
	['Austin', 'TX', '78701'], ['Denver', 'CO', '80202'], ['Boston', 'MA', '02108'], ['Seattle', 'WA', '98101'],
	['Miami', 'FL', '33101'], ['Portland', 'OR', '97201'], ['Chicago', 'IL', '60601'], ['Phoenix', 'AZ', '85001'],
];
const STREETS = ['Oak St', 'Maple Ave', 'Pine Rd', 'Cedar Ln', 'Elm Dr', 'Birch Way', 'Lake Blvd', 'Hill Ct'];
const TAGS = ['buyer', 'seller', 'investor', 'first-time', 'relocation', 'vip', 'referral', 'cold'];
const STAGES = ['Lead', 'Prospect', 'Active', 'Under Contract', 'Closed', 'Past Client'];
const SOURCES = ['Zillow', 'Website', 'Referral', 'Open House', 'Facebook', 'Realtor.com'];
const ZONES = ['America/Chicago', 'America/Denver', 'America/New_York', 'America/Los_Angeles', 'America/Phoenix'];
const JOBS = ['Engineer', 'Teacher', 'Nurse', 'Designer', 'Accountant', 'Chef', 'Pilot', 'Analyst'];
// Notes are a window into this text (one random draw instead of one per word: seeding speed matters).
const NOTES_TEXT = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt in culpa qui officia deserunt mollit anim id est laborum';
const SEED_EPOCH = Date.UTC(2024, 0, 1);
const SEED_TIME = new Date(SEED_EPOCH).toISOString();

// The seeded JSON below is written by hand (eight times faster than building objects and calling
// JSON.stringify, which matters for 50,000 people). That is only valid while every string it embeds
// needs no JSON escaping, so check the word lists once here.
for (const list of [FIRST, LAST, CITIES.flat(), STREETS, TAGS, STAGES, SOURCES, ZONES, JOBS, [NOTES_TEXT]]) {
	for (const word of list) {
		if (JSON.stringify(word) !== `"${word}"`) throw new Error(`seed word needs JSON escaping: ${word}`);
	}
}

const seedDays = new Map<number, string>();
/** Date#toISOString for whole-second times, several times faster (100,000 calls per 50,000 people). */
function seedIso(ms: number): string {
	const day = Math.floor(ms / 86_400_000);
	let prefix = seedDays.get(day);
	if (prefix === undefined) {
		prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
		seedDays.set(day, prefix);
	}
	const sec = Math.floor((ms - day * 86_400_000) / 1000);
	const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
	return `${prefix}${two(Math.floor(sec / 3600))}:${two(Math.floor(sec / 60) % 60)}:${two(sec % 60)}.000Z`;
}

/**
 * Person number i (1-based) of the seeded set, as JSON. Each person has its own PRNG stream derived
 * from (seed, i), so the set is the same whatever its size, and any person could be made on its own.
 */
function generatePerson(i: number, seed: number): string {
	const rnd = mulberry32(mix32(seed, i));
	const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
	const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
	const pad = (n: number, width: number): string => String(n).padStart(width, '0');
	const firstName = pick(FIRST);
	const lastName = pick(LAST);
	const [city, state, code] = pick(CITIES);
	const created = seedIso(SEED_EPOCH + i * 61_000);
	const updated = seedIso(SEED_EPOCH + i * 61_000 + int(0, 86_400) * 1000);
	const tags = rnd() < 0.5 ? `"${pick(TAGS)}"` : `"${pick(TAGS)}","${pick(TAGS)}"`;
	const notesStart = int(0, NOTES_TEXT.length - 180);
	const notes = NOTES_TEXT.slice(notesStart, notesStart + 180).trim();
	const email = `${firstName}.${lastName}.${i}@example.test`.toLowerCase();
	const phone = `+1555${pad(int(0, 9_999_999), 7)}`;
	const street = `${int(1, 9999)} ${pick(STREETS)}`;
	const stage = int(0, STAGES.length - 1);
	const consent = `{"email":true,"call":${rnd() < 0.8},"text":${rnd() < 0.6},"massEmail":${rnd() < 0.4},"postal":true,"visit":false}`;
	const json =
		`{"id":"p_${i}","name":"${firstName} ${lastName}","firstName":"${firstName}","lastName":"${lastName}",` +
		`"timezone":"${pick(ZONES)}","assignedUserId":"u_${int(1, 20)}","assignedPondId":"pond_${int(1, 5)}",` +
		`"officeId":"office_${int(1, 3)}","timeframeId":"tf_${int(1, 4)}","stage":"${STAGES[stage]}","stageId":"stage_${stage + 1}",` +
		`"tags":[${tags}],` +
		`"addresses":[{"type":"home","street":"${street}","city":"${city}","state":"${state}","code":"${code}","country":"US"}],` +
		`"emails":[{"value":"${email}","type":"home","status":"Valid","isPrimary":true}],` +
		`"phones":[{"value":"${phone}","type":"mobile","status":"Valid","isPrimary":true}],` +
		`"source":"${pick(SOURCES)}","sourceId":"src_${int(1, 50)}","systemSource":"crm",` +
		`"averageBeds":${int(1, 5)},"averagePrice":${int(150, 1500) * 1000},` +
		`"birthday":"19${int(50, 99)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}",` +
		`"lastActivity":"${updated}","lastActivityType":"${pick(['call', 'email', 'text', 'showing'])}",` +
		`"contactTypes":["${pick(['lead', 'client', 'agent', 'vendor'])}"],"jobTitle":"${pick(JOBS)}",` +
		`"companyName":"${pick(LAST)} ${pick(['LLC', 'Inc', 'Group', 'Partners'])}","communicationsConsent":${consent},` +
		`"created":"${created}","updated":"${updated}","serviceUpdated":"${updated}",` +
		`"originalIds":{"crm":"crm-${100000 + i}"},` +
		// A few hundred bytes of "as held in the external system" data, like a real connector.
		`"original":{"id":${100000 + i},"first_name":"${firstName}","last_name":"${lastName}","email_address":"${email}",` +
		`"phone_number":"${phone}","street_address":"${street}","city":"${city}","state":"${state}","zip":"${code}",` +
		`"lead_score":${int(0, 100)},"notes":"${notes}","created_at":"${created}"}}`;
	json.charCodeAt(0); // flattens V8's rope of concatenations now, so the stored string is compact
	return json;
}

/**
 * All seeded people as JSON strings, serialised once up front (well under a second for 50,000): the benchmark
 * measures listing, so no generation cost may leak into it. Pages are then built by joining these.
 */
function generatePeople(count: number, seed: number): string[] {
	const out = new Array<string>(count);
	for (let i = 0; i < count; i++) out[i] = generatePerson(i + 1, seed);
	return out;
}

// ---------------------------------------------------------------------------------------------
// The sandbox
// ---------------------------------------------------------------------------------------------

interface Connection {
	/** How many of the seeded people belong to this connection (a prefix of the seeded set). */
	seededPeople: number;
	/** People created through POST, as precomputed JSON strings, in creation order. */
	createdPeople: string[];
	borrowers: Map<string, Obj>;
	documents: Map<string, Obj>;
	webhooks: Map<string, Obj>;
}

interface CredentialRecord {
	id: string;
	createdAt: string;
	appKey: unknown;
	label?: string;
	data: Obj;
}

interface QueuedFault {
	spec: FaultSpec;
	/** Requests left to affect; undefined = unlimited (ratio fault without count). */
	remaining?: number;
}

interface Route {
	methods: Record<string, (ctx: Ctx) => Reply>;
	param?: string;
}

interface Ctx {
	host: HostName;
	method: string;
	query: Record<string, string>;
	body: Obj;
	credentialId: string;
	param: string;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Headers received, lower-cased (node already lower-cases), repeated ones joined as node does. */
function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(h)) {
		if (v === undefined) continue;
		out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
	}
	return out;
}

function describeFault(f: FaultSpec): string {
	const parts: string[] = [];
	if (f.delayMs) parts.push(`delay ${f.delayMs}ms`);
	if (f.drop) parts.push('drop');
	else if (f.html) parts.push(`html ${f.status ?? 502}`);
	else if (f.malformed) parts.push('malformed');
	else if (f.status !== undefined) parts.push(`status ${f.status}${f.retryAfter !== undefined ? ` retry-after ${f.retryAfter}` : ''}`);
	if (f.afterProcessing) parts.push('after processing');
	if (f.ratio !== undefined) parts.push(`ratio ${f.ratio}`);
	return parts.join(', ') || 'no-op';
}

function validateFault(f: unknown): FaultSpec {
	if (!isObj(f)) throw new HttpError(400, 'fault must be a JSON object');
	const s = f as FaultSpec;
	if (s.status !== undefined && (!Number.isInteger(s.status) || s.status < 100 || s.status > 599)) {
		throw new HttpError(400, 'fault.status must be an integer 100..599');
	}
	if (s.ratio !== undefined && (typeof s.ratio !== 'number' || s.ratio < 0 || s.ratio > 1)) {
		throw new HttpError(400, 'fault.ratio must be a number 0..1');
	}
	if (s.count !== undefined && (!Number.isInteger(s.count) || s.count < 1)) {
		throw new HttpError(400, 'fault.count must be a positive integer');
	}
	if (s.delayMs !== undefined && (typeof s.delayMs !== 'number' || s.delayMs < 0)) {
		throw new HttpError(400, 'fault.delayMs must be a non-negative number');
	}
	if (s.match !== undefined && !isObj(s.match)) throw new HttpError(400, 'fault.match must be an object');
	for (const k of ['method', 'pathPrefix'] as const) {
		if (s.match?.[k] !== undefined && typeof s.match[k] !== 'string') throw new HttpError(400, `fault.match.${k} must be a string`);
	}
	for (const k of ['retryAfter', 'body'] as const) {
		if (s[k] !== undefined && typeof s[k] !== 'string') throw new HttpError(400, `fault.${k} must be a string`);
	}
	if (s.match?.host !== undefined && !HOST_NAMES.includes(s.match.host)) {
		throw new HttpError(400, `fault.match.host must be one of ${HOST_NAMES.join(', ')}`);
	}
	return s;
}

class SandboxImpl implements Sandbox {
	urls = {} as Record<HostName, string>;
	readonly token: string;
	readonly jwtSecret: string;
	readonly jwtIssuer: string;
	readonly defaultCredentialId: string;
	/** The log; cleared in place on reset so references held by callers stay valid. */
	readonly requests: RecordedRequest[] = [];

	private readonly initialIds: string[];
	private readonly seed: number;
	private readonly maxPageSize: number;
	private readonly initialPaging: PagingStyle;
	private readonly initialLatency: number;
	/** Shared by every reset: connections only record how many of these they hold. */
	private readonly seededPeople: string[];
	private readonly cursorKey: string;

	private paging: PagingStyle;
	private latency: number;
	private faultRng: () => number;
	private faults: QueuedFault[] = [];
	private credentials = new Map<string, CredentialRecord>();
	private conns = new Map<string, Connection>();
	private counters = { person: 0, document: 0, credential: 0, authRequest: 0, seq: 0 };

	private servers: http.Server[] = [];
	private sockets = new Set<Socket>();
	private timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
	private closed = false;

	constructor(private readonly options: SandboxOptions) {
		this.token = options.token ?? 'sandbox-token';
		this.jwtSecret = options.jwtSecret ?? 'sandbox-client-secret';
		this.jwtIssuer = options.jwtIssuer ?? 'sandbox-client-id';
		this.initialIds = options.credentialIds?.length ? [...options.credentialIds] : ['cred-default', 'cred-other'];
		this.defaultCredentialId = this.initialIds[0];
		this.seed = options.seed ?? 1;
		this.maxPageSize = options.maxPageSize ?? 100;
		this.initialPaging = options.paging ?? 'nextLink';
		this.initialLatency = options.latencyMs ?? 0;
		this.paging = this.initialPaging;
		this.latency = this.initialLatency;
		this.faultRng = mulberry32(this.seed ^ 0x9e3779b9);
		this.cursorKey = `sandbox-cursor-${this.seed}`;
		this.seededPeople = generatePeople(Math.max(0, Math.floor(options.people ?? 0)), this.seed);
		this.seedRecords();
	}

	/** Known connection ids (initial ones first, then those created through POST /api/credentials). */
	get credentialIds(): string[] {
		return [...this.credentials.keys()];
	}

	// ----- public API ---------------------------------------------------------------------

	inject(fault: FaultSpec): void {
		const spec = validateFault(fault);
		const remaining = spec.count ?? (spec.ratio === undefined ? 1 : undefined);
		this.faults.push({ spec: { ...spec }, remaining });
	}

	clearFaults(): void {
		this.faults = [];
	}

	/** Clears log, faults and records, restores start-up paging/latency, and reseeds. */
	reset(): void {
		this.requests.length = 0;
		this.faults = [];
		this.faultRng = mulberry32(this.seed ^ 0x9e3779b9);
		this.paging = this.initialPaging;
		this.latency = this.initialLatency;
		this.counters = { person: 0, document: 0, credential: 0, authRequest: 0, seq: 0 };
		this.seedRecords();
	}

	/** Without credentialId: summed over all connections (for 'credentials': the number of credentials). */
	count(kind: RecordKind, credentialId?: string): number {
		if (kind === 'credentials') {
			return credentialId === undefined ? this.credentials.size : this.credentials.has(credentialId) ? 1 : 0;
		}
		const size = (c: Connection): number => (kind === 'people' ? c.seededPeople + c.createdPeople.length : c[kind].size);
		if (credentialId !== undefined) {
			const c = this.conns.get(credentialId);
			return c ? size(c) : 0;
		}
		let total = 0;
		for (const c of this.conns.values()) total += size(c);
		return total;
	}

	people(credentialId?: string): Record<string, unknown>[] {
		const c = this.conns.get(credentialId ?? this.defaultCredentialId);
		return c ? this.peopleJson(c, 0, Infinity).map((p) => JSON.parse(p) as Record<string, unknown>) : [];
	}

	addBorrower(credentialId: string, id: string, fields: Record<string, unknown> = {}): void {
		this.connFor(credentialId).borrowers.set(id, this.makeBorrower(id, fields));
	}

	addWebhook(credentialId: string, id: string, fields: Record<string, unknown> = {}): void {
		this.connFor(credentialId).webhooks.set(id, this.makeWebhook(id, fields));
	}

	setPaging(style: PagingStyle): void {
		if (!['nextLink', 'next', 'offset'].includes(style)) throw new Error(`unknown paging style '${style}'`);
		this.paging = style;
	}

	setLatency(ms: number): void {
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new Error('latency must be a non-negative number');
		this.latency = ms;
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		// Wake every pending delay so no handler keeps a timer (and jest) alive.
		for (const t of this.timers) {
			clearTimeout(t.timer);
			t.resolve();
		}
		this.timers.clear();
		for (const s of this.sockets) s.destroy();
		await Promise.all(
			this.servers.map(
				(srv) =>
					new Promise<void>((resolve) => {
						srv.close(() => resolve());
						srv.closeAllConnections();
					}),
			),
		);
	}

	// ----- start-up ----------------------------------------------------------------------

	async listen(): Promise<void> {
		const bind = this.options.host ?? '127.0.0.1';
		try {
			for (const host of HOST_NAMES) {
				const server = http.createServer((req, res) => {
					this.onRequest(host, req, res).catch((err: unknown) => {
						// Last resort: never let a handler bug crash the process.
						if (!res.headersSent && !res.destroyed) {
							res.writeHead(500, { 'content-type': 'application/json' });
							res.end(JSON.stringify({ error: `sandbox internal error: ${(err as Error).message}` }));
						}
					});
				});
				// Keep-alive friendly: clients such as n8n reuse connections for seconds.
				server.keepAliveTimeout = 10_000;
				server.headersTimeout = 15_000;
				server.on('connection', (socket: Socket) => {
					this.sockets.add(socket);
					socket.on('close', () => this.sockets.delete(socket));
				});
				server.on('clientError', (_err, socket) => socket.destroy());
				this.servers.push(server);
				await new Promise<void>((resolve, reject) => {
					server.once('error', reject);
					server.listen(this.options.ports?.[host] ?? 0, bind, () => {
						server.off('error', reject);
						resolve();
					});
				});
				const addr = server.address();
				const port = typeof addr === 'object' && addr ? addr.port : 0;
				const shown = bind.includes(':') ? `[${bind}]` : bind;
				this.urls[host] = `http://${shown}:${port}`;
			}
		} catch (err) {
			await this.close();
			throw err;
		}
	}

	// ----- state -------------------------------------------------------------------------

	private seedRecords(): void {
		this.credentials.clear();
		this.conns.clear();
		for (const id of this.initialIds) {
			this.credentials.set(id, {
				id,
				createdAt: SEED_TIME,
				appKey: 'sandbox-app',
				label: `Sandbox connection ${id}`,
				data: { entitiesToSync: {} },
			});
			const conn = this.connFor(id);
			conn.borrowers.set('b-1', this.makeBorrower('b-1', {
				name: 'Sample Borrower',
				type: 'individual',
				emails: [{ value: 'borrower@example.test', type: 'home', status: 'Valid', isPrimary: true }],
			}, SEED_TIME));
			conn.webhooks.set('w-1', this.makeWebhook('w-1', {
				event: 'peopleCreated',
				url: 'https://hooks.example.test/w-1',
				filters: {},
			}));
		}
		this.connFor(this.defaultCredentialId).seededPeople = this.seededPeople.length;
		this.counters.person = this.seededPeople.length;
	}

	private connFor(credentialId: string): Connection {
		if (!this.credentials.has(credentialId)) throw new Error(`unknown credential id '${credentialId}'`);
		let c = this.conns.get(credentialId);
		if (!c) {
			c = { seededPeople: 0, createdPeople: [], borrowers: new Map(), documents: new Map(), webhooks: new Map() };
			this.conns.set(credentialId, c);
		}
		return c;
	}

	/** JSON strings of the connection's people in [from, to): seeded ones first, then created ones. */
	private peopleJson(c: Connection, from: number, to: number): string[] {
		const end = Math.min(to, c.seededPeople + c.createdPeople.length);
		const out: string[] = [];
		for (let i = from; i < end; i++) {
			out.push(i < c.seededPeople ? this.seededPeople[i] : c.createdPeople[i - c.seededPeople]);
		}
		return out;
	}

	private makeBorrower(id: string, fields: Obj, at = nowIso()): Obj {
		return {
			...fields,
			id,
			created: at,
			updated: at,
			serviceUpdated: at,
			originalIds: { los: `los-${id}` },
			original: { ...fields },
		};
	}

	private makeWebhook(id: string, fields: Obj): Obj {
		return { id, status: 'active', event: '', url: '', filters: {}, ...fields };
	}

	// ----- timing ------------------------------------------------------------------------

	/** Delay that close() can cut short, so a pending fault delay never holds the process open. */
	private sleep(ms: number): Promise<void> {
		if (!(ms > 0) || this.closed) return Promise.resolve();
		return new Promise((resolve) => {
			const entry = {
				timer: setTimeout(() => {
					this.timers.delete(entry);
					resolve();
				}, ms),
				resolve,
			};
			this.timers.add(entry);
		});
	}

	// ----- request pipeline ----------------------------------------------------------------

	private async onRequest(host: HostName, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		// A client that gives up mid-delay must not produce an unhandled error.
		req.on('error', () => undefined);
		res.on('error', () => undefined);

		const rawUrl = req.url ?? '/';
		const q = rawUrl.indexOf('?');
		const path = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
		const queryString = q >= 0 ? rawUrl.slice(q + 1) : '';
		const method = (req.method ?? 'GET').toUpperCase();

		const { text: rawBody, tooLarge } = await readBody(req);

		if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
			this.control(path, method, queryString, rawBody, res);
			return;
		}

		const query: Record<string, string> = {};
		for (const [k, v] of new URLSearchParams(queryString)) if (!(k in query)) query[k] = v;
		let parsed: unknown;
		try {
			parsed = rawBody === '' ? undefined : JSON.parse(rawBody);
		} catch {
			parsed = undefined;
		}
		const rec: RecordedRequest = {
			seq: ++this.counters.seq,
			host,
			method,
			url: rawUrl,
			path,
			query,
			headers: flattenHeaders(req.headers),
			rawBody,
			body: parsed,
			status: 0,
		};
		this.requests.push(rec);

		if (tooLarge) {
			await this.send(req, res, rec, jsonReply(413, { error: `request body larger than ${MAX_BODY_BYTES} bytes` }));
			return;
		}

		const fault = this.takeFault(host, method, path);
		if (fault) rec.fault = describeFault(fault);
		if (fault?.delayMs) await this.sleep(fault.delayMs);
		const terminal = !!fault && (fault.drop || fault.html || fault.malformed || fault.status !== undefined);

		if (fault && terminal && !fault.afterProcessing) {
			await this.applyFault(fault, req, res, rec);
			return;
		}
		const reply = this.process(host, method, path, query, req.headers, rawBody);
		if (fault && terminal) {
			// afterProcessing: the operation happened (e.g. the record exists) but the client sees a failure.
			await this.applyFault(fault, req, res, rec);
			return;
		}
		await this.send(req, res, rec, reply);
	}

	private takeFault(host: HostName, method: string, path: string): FaultSpec | undefined {
		for (let i = 0; i < this.faults.length; i++) {
			const f = this.faults[i];
			const m = f.spec.match;
			if (m?.host !== undefined && m.host !== host) continue;
			if (m?.method !== undefined && m.method.toUpperCase() !== method) continue;
			if (m?.pathPrefix !== undefined && !path.startsWith(m.pathPrefix)) continue;
			// Ratio faults draw only for requests they match, so the sequence is reproducible.
			if (f.spec.ratio !== undefined && !(this.faultRng() < f.spec.ratio)) continue;
			if (f.remaining !== undefined) {
				f.remaining--;
				if (f.remaining <= 0) this.faults.splice(i, 1);
			}
			return f.spec;
		}
		return undefined;
	}

	private async applyFault(f: FaultSpec, req: http.IncomingMessage, res: http.ServerResponse, rec: RecordedRequest): Promise<void> {
		if (f.drop) {
			await this.sleep(this.latency);
			rec.status = 0;
			req.socket.destroy();
			return;
		}
		if (f.html) {
			const status = f.status ?? 502;
			// What a proxy in front of the service returns: the client must not try to parse it as JSON.
			const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
			const body = f.body ?? `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>upstream unavailable</p></body></html>`;
			await this.send(req, res, rec, { status, body, contentType: 'text/html; charset=utf-8' });
			return;
		}
		if (f.malformed) {
			// Looks like JSON, is cut off mid-value: the client must report a parse error, not crash.
			await this.send(req, res, rec, { status: 200, body: f.body ?? '{"_metadata":{"collection":"people","offset":0,"li', contentType: 'application/json' });
			return;
		}
		const status = f.status ?? 500;
		const headers: Record<string, string> = {};
		if (f.retryAfter !== undefined) headers['retry-after'] = f.retryAfter;
		const body = f.body ?? JSON.stringify({ error: `injected ${status}` });
		let contentType = 'application/json';
		if (f.body !== undefined) {
			try {
				JSON.parse(f.body);
			} catch {
				contentType = 'text/plain; charset=utf-8';
			}
		}
		await this.send(req, res, rec, { status, body, contentType, headers });
	}

	private async send(req: http.IncomingMessage, res: http.ServerResponse, rec: RecordedRequest | undefined, reply: Reply): Promise<void> {
		if (rec) await this.sleep(this.latency);
		// The client may have gone away during a delay: writing then is pointless (and must not throw).
		if (res.destroyed || req.socket.destroyed || res.writableEnded) {
			if (rec) rec.status = 0;
			return;
		}
		if (rec) rec.status = reply.status;
		const body = Buffer.from(reply.body, 'utf8');
		res.writeHead(reply.status, {
			'content-type': reply.contentType ?? 'application/json; charset=utf-8',
			'content-length': String(body.length),
			...(reply.headers ?? {}),
		});
		res.end(body);
	}

	/** Auth, routing, headers, body and validation, then the handler. Never throws. */
	private process(
		host: HostName,
		method: string,
		path: string,
		query: Record<string, string>,
		headers: http.IncomingHttpHeaders,
		rawBody: string,
	): Reply {
		try {
			const authError = this.checkAuth(headers.authorization);
			if (authError) throw new HttpError(401, authError, { 'www-authenticate': 'Bearer' });

			const route = this.route(host, path);
			if (!route) throw new HttpError(404, `no endpoint ${path} on the ${host} host`);
			const handler = route.methods[method];
			if (!handler) {
				const allow = Object.keys(route.methods).join(', ');
				throw new HttpError(405, `method ${method} not allowed on ${path} (allowed: ${allow})`, { allow });
			}

			let credentialId = '';
			if (host !== 'universal') {
				const raw = headers['x-service-credential-id'];
				const value = Array.isArray(raw) ? raw[0] : raw;
				if (value === undefined || value.trim() === '') throw new HttpError(400, 'missing X-Service-Credential-Id header');
				if (!this.credentials.has(value)) throw new HttpError(403, 'credential not allowed: unknown X-Service-Credential-Id');
				credentialId = value;
			}

			let body: Obj = {};
			if (method === 'POST' || method === 'PUT') {
				const ct = headers['content-type'];
				const mediaType = (ct ?? '').split(';')[0].trim().toLowerCase();
				if (mediaType !== 'application/json') {
					throw new HttpError(415, `Content-Type must be application/json (got ${ct === undefined ? 'none' : `'${ct}'`})`);
				}
				let parsed: unknown;
				try {
					parsed = JSON.parse(rawBody);
				} catch {
					throw new HttpError(400, rawBody.trim() === '' ? 'request body is empty; a JSON object is required' : 'request body is not valid JSON');
				}
				if (!isObj(parsed)) throw new HttpError(400, 'request body must be a JSON object');
				body = parsed;
			}

			return handler({ host, method, query, body, credentialId, param: route.param ?? '' });
		} catch (err) {
			if (err instanceof HttpError) {
				return { status: err.status, body: JSON.stringify({ error: err.message }), headers: err.headers };
			}
			return jsonReply(500, { error: `sandbox internal error: ${(err as Error).message}` });
		}
	}

	/** Returns an error message, or undefined when the bearer token is acceptable. */
	private checkAuth(header: string | undefined): string | undefined {
		if (header === undefined || header.trim() === '') return 'missing bearer token';
		const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
		if (!m) return 'missing bearer token: Authorization must be "Bearer <token>"';
		const token = m[1];
		if (safeEqual(token, this.token)) return undefined;

		const parts = token.split('.');
		if (parts.length !== 3) return 'invalid token: neither the access token nor a JWT';
		const header0 = decodeJsonSegment(parts[0]);
		if (!isObj(header0)) return 'invalid token: malformed JWT header';
		if (header0.alg !== 'HS512') return 'invalid token: JWT algorithm must be HS512';
		const expected = crypto.createHmac('sha512', this.jwtSecret).update(`${parts[0]}.${parts[1]}`).digest();
		const given = Buffer.from(parts[2], 'base64url');
		if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid signature';
		const claims = decodeJsonSegment(parts[1]);
		if (!isObj(claims)) return 'invalid token: malformed JWT payload';
		if (claims.iss !== this.jwtIssuer) return 'invalid token: issuer (iss) is not a known client id';
		if (typeof claims.sub !== 'string' || claims.sub === '') return 'invalid token: subject (sub) missing';
		if (typeof claims.iat !== 'number') return 'invalid token: issued-at (iat) missing';
		if (typeof claims.exp !== 'number') return 'invalid token: expiry (exp) missing';
		if (claims.exp <= Date.now() / 1000) return 'token expired';
		return undefined;
	}

	/**
	 * Each host serves only its own endpoints. Path parameters are the raw remainder after the prefix,
	 * which must be exactly one segment; it is percent-decoded once and never normalised.
	 */
	private route(host: HostName, path: string): Route | undefined {
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
		let p: string | undefined;
		switch (host) {
			case 'crm':
				if (path === '/api/people') return { methods: { GET: (c) => this.listPeople(c), POST: (c) => this.createPerson(c) } };
				return undefined;
			case 'universal':
				if (path === '/api/oauth/authorize-url') return { methods: { POST: (c) => this.authorizeUrl(c) } };
				if (path === '/api/credentials') return { methods: { POST: (c) => this.createCredential(c) } };
				if ((p = param('/api/credentials/')) !== undefined) return { methods: { PUT: (c) => this.updateCredential(c) }, param: p };
				return undefined;
			case 'los':
				if ((p = param('/api/borrowers/')) !== undefined) return { methods: { PUT: (c) => this.updateBorrower(c) }, param: p };
				if (path === '/api/documents') return { methods: { POST: (c) => this.createDocument(c) } };
				return undefined;
			case 'calendar':
				if ((p = param('/api/webhooks/')) !== undefined) return { methods: { PUT: (c) => this.updateWebhook(c) }, param: p };
				return undefined;
		}
	}

	// ----- endpoint handlers ----------------------------------------------------------------

	private cursorFor(credentialId: string, offset: number): string {
		const sig = crypto.createHmac('sha256', this.cursorKey).update(`${credentialId}:${offset}`).digest('base64url').slice(0, 16);
		return `c${offset.toString(36)}_${sig}`;
	}

	private offsetFromCursor(credentialId: string, cursor: string): number {
		const m = /^c([0-9a-z]+)_[A-Za-z0-9_-]{16}$/.exec(cursor);
		const offset = m ? parseInt(m[1], 36) : NaN;
		if (!Number.isSafeInteger(offset) || this.cursorFor(credentialId, offset) !== cursor) {
			throw new HttpError(400, "unknown 'next' cursor");
		}
		return offset;
	}

	private listPeople(c: Ctx): Reply {
		let limit = 100;
		if (c.query.limit !== undefined) {
			if (!/^\d+$/.test(c.query.limit) || Number(c.query.limit) < 1) badRequest("query parameter 'limit' must be a positive integer");
			limit = Number(c.query.limit);
		}
		limit = Math.min(limit, this.maxPageSize);
		let offset = 0;
		if (c.query.next !== undefined) {
			offset = this.offsetFromCursor(c.credentialId, c.query.next);
		} else if (c.query.offset !== undefined) {
			if (!/^\d+$/.test(c.query.offset)) badRequest("query parameter 'offset' must be a non-negative integer");
			offset = Number(c.query.offset);
		}
		const conn = this.connFor(c.credentialId);
		const total = conn.seededPeople + conn.createdPeople.length;
		const page = this.peopleJson(conn, offset, offset + limit);
		const more = offset + page.length < total;
		let next: string | null = null;
		let nextLink: string | null = null;
		if (more && this.paging !== 'offset') {
			next = this.cursorFor(c.credentialId, offset + page.length);
			if (this.paging === 'nextLink') nextLink = `${this.urls.crm}/api/people?next=${encodeURIComponent(next)}&limit=${limit}`;
		}
		const meta = { collection: 'people', offset, limit, total, next, nextLink };
		// Join precomputed JSON strings: no re-serialisation of people per page.
		return { status: 200, body: `{"_metadata":${JSON.stringify(meta)},"people":[${page.join(',')}]}` };
	}

	private createPerson(c: Ctx): Reply {
		validateFields(c.body, PERSON_FIELDS, 'a person');
		const id = `p_${++this.counters.person}`;
		const at = nowIso();
		const echoed: Obj = { ...c.body };
		delete echoed.rating; // accepted, never returned (spec 2.1)
		const first = typeof c.body.firstName === 'string' ? c.body.firstName : '';
		const last = typeof c.body.lastName === 'string' ? c.body.lastName : '';
		const person: Obj = {
			id,
			name: `${first} ${last}`.trim(),
			...echoed,
			created: at,
			updated: at,
			serviceUpdated: at,
			originalIds: { crm: id },
			original: JSON.parse(JSON.stringify(c.body)) as Obj,
		};
		const json = JSON.stringify(person);
		this.connFor(c.credentialId).createdPeople.push(json);
		return { status: 200, body: json };
	}

	private authorizeUrl(c: Ctx): Reply {
		validateFields(c.body, AUTHORIZE_FIELDS, 'an authorization link request');
		const requestId = `req_${++this.counters.authRequest}`;
		return jsonReply(200, { url: `https://auth.example.test/authorize?request=${encodeURIComponent(requestId)}`, requestId });
	}

	private createCredential(c: Ctx): Reply {
		validateFields(c.body, CREATE_CREDENTIAL_FIELDS, 'a credential');
		requireNonEmptyString(c.body, 'appKey');
		if (c.body.userInputs === undefined) badRequest("field 'userInputs' is required");
		let id: string;
		do id = `cred-${++this.counters.credential}`;
		while (this.credentials.has(id));
		const data: Obj = { entitiesToSync: { ...((c.body.entitiesToSync as Obj | undefined) ?? {}) } };
		if (c.body.plan !== undefined) data.plan = c.body.plan;
		if (c.body.credentialKey !== undefined) data.credentialKey = c.body.credentialKey;
		// userInputs (often secrets) are deliberately not stored or returned.
		this.credentials.set(id, { id, createdAt: nowIso(), appKey: c.body.appKey, data });
		this.connFor(id); // the new connection can be used with X-Service-Credential-Id at once
		return jsonReply(200, { id });
	}

	private updateCredential(c: Ctx): Reply {
		validateFields(c.body, UPDATE_CREDENTIAL_FIELDS, 'a credential update');
		if (c.body.entitiesToSync === undefined) badRequest("field 'entitiesToSync' is required");
		const cred = this.credentials.get(c.param);
		if (!cred) throw new HttpError(404, 'credential not found');
		const current = isObj(cred.data.entitiesToSync) ? cred.data.entitiesToSync : {};
		cred.data = { ...cred.data, entitiesToSync: { ...current, ...(c.body.entitiesToSync as Obj) } };
		const out: Obj = { id: cred.id, createdAt: cred.createdAt, appKey: cred.appKey };
		if (cred.label !== undefined) out.label = cred.label;
		out.data = cred.data;
		return jsonReply(200, out);
	}

	private updateBorrower(c: Ctx): Reply {
		validateFields(c.body, BORROWER_FIELDS, 'a borrower');
		const conn = this.connFor(c.credentialId);
		const current = conn.borrowers.get(c.param);
		if (!current) throw new HttpError(404, 'borrower not found');
		const at = nowIso();
		const updated: Obj = {
			...current,
			...c.body,
			id: c.param,
			updated: at,
			serviceUpdated: at,
			original: { ...(isObj(current.original) ? current.original : {}), ...c.body },
		};
		conn.borrowers.set(c.param, updated);
		return jsonReply(200, updated);
	}

	private createDocument(c: Ctx): Reply {
		for (const f of DOCUMENT_NOT_ACCEPTED) {
			if (f in c.body) badRequest(`field '${f}' is not accepted on create (it is set by the service)`);
		}
		validateFields(c.body, DOCUMENT_FIELDS, 'a document');
		for (const f of DOCUMENT_REQUIRED) requireNonEmptyString(c.body, f);
		const id = `doc_${++this.counters.document}`;
		const at = nowIso();
		const doc: Obj = {
			id,
			name: null, category: null, status: null, type: null, fileUrl: null, mimeType: null,
			fileSignature: null, folderId: null, fileSize: null, created: at, updated: at,
			receivedDate: null, requiresSignature: false, isSigned: false, signedBy: [], signedDate: null,
			isActive: true, loanId: null, borrowerId: null, propertyId: null, transactionId: null, userId: null,
			...c.body,
			originalIds: { los: `los-${id}` },
			original: JSON.parse(JSON.stringify(c.body)) as Obj,
			serviceUpdated: at,
		};
		this.connFor(c.credentialId).documents.set(id, doc);
		return jsonReply(201, doc);
	}

	private updateWebhook(c: Ctx): Reply {
		validateFields(c.body, WEBHOOK_FIELDS, 'a webhook');
		const conn = this.connFor(c.credentialId);
		const current = conn.webhooks.get(c.param);
		if (!current) throw new HttpError(404, 'webhook not found');
		const updated: Obj = { ...current, ...c.body, id: c.param, status: 'active' };
		conn.webhooks.set(c.param, updated);
		return jsonReply(200, updated);
	}

	// ----- control endpoints (no auth, not logged, no latency) ----------------------------------

	private countsJson(): Obj {
		const kinds: RecordKind[] = ['people', 'borrowers', 'documents', 'webhooks'];
		const byCredential: Record<string, Obj> = {};
		for (const id of this.credentials.keys()) {
			byCredential[id] = Object.fromEntries(kinds.map((k) => [k, this.count(k, id)]));
		}
		return {
			people: this.count('people'),
			credentials: this.count('credentials'),
			borrowers: this.count('borrowers'),
			documents: this.count('documents'),
			webhooks: this.count('webhooks'),
			byCredential,
		};
	}

	private control(path: string, method: string, queryString: string, rawBody: string, res: http.ServerResponse): void {
		const reply = (status: number, value: unknown): void => {
			if (res.destroyed) return;
			const body = JSON.stringify(value);
			res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
			res.end(body);
		};
		const parseBody = (): unknown => {
			if (rawBody.trim() === '') return undefined;
			try {
				return JSON.parse(rawBody);
			} catch {
				throw new HttpError(400, 'control request body is not valid JSON');
			}
		};
		try {
			const key = `${method} ${path}`;
			switch (key) {
				case 'GET /__sandbox/requests': {
					const since = Number(new URLSearchParams(queryString).get('since') ?? '0');
					reply(200, since > 0 ? this.requests.filter((r) => r.seq > since) : this.requests);
					return;
				}
				case 'GET /__sandbox/faults':
					reply(200, this.faults.map((f) => ({ ...f.spec, remaining: f.remaining ?? null })));
					return;
				case 'POST /__sandbox/faults': {
					const body = parseBody();
					const list = Array.isArray(body) ? body : [body];
					const specs = list.map((f) => validateFault(f));
					for (const s of specs) this.inject(s);
					reply(200, { ok: true, queued: this.faults.length });
					return;
				}
				case 'DELETE /__sandbox/faults':
					this.clearFaults();
					reply(200, { ok: true });
					return;
				case 'POST /__sandbox/reset':
					this.reset();
					reply(200, { ok: true });
					return;
				case 'GET /__sandbox/counts':
					reply(200, this.countsJson());
					return;
				case 'POST /__sandbox/config': {
					// Lets another process (benchmark, e2e) change paging or latency of a running sandbox.
					const body = parseBody();
					if (!isObj(body)) throw new HttpError(400, 'config body must be a JSON object');
					try {
						if (body.paging !== undefined) this.setPaging(body.paging as PagingStyle);
						if (body.latencyMs !== undefined) this.setLatency(body.latencyMs as number);
					} catch (err) {
						throw new HttpError(400, (err as Error).message);
					}
					reply(200, { ok: true, paging: this.paging, latencyMs: this.latency });
					return;
				}
				case 'GET /__sandbox/info':
					// Deliberately no token or secret here: this endpoint is unauthenticated.
					reply(200, {
						urls: this.urls,
						credentialIds: this.credentialIds,
						defaultCredentialId: this.defaultCredentialId,
						paging: this.paging,
						latencyMs: this.latency,
					});
					return;
				default:
					reply(404, { error: `unknown control endpoint ${method} ${path}` });
			}
		} catch (err) {
			if (err instanceof HttpError) reply(err.status, { error: err.message });
			else reply(500, { error: `sandbox internal error: ${(err as Error).message}` });
		}
	}
}

/** Reads the whole body as UTF-8; beyond the cap the rest is drained and discarded. */
function readBody(req: http.IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		const done = (): void => resolve({ text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge });
		req.on('end', done);
		req.on('close', done); // aborted uploads: resolve anyway (resolve is idempotent)
	});
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = new SandboxImpl(options);
	await sandbox.listen();
	return sandbox;
}
