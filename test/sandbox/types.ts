/** Shapes shared by the sandbox's modules and by everything that drives a sandbox (tests, bench, demo, e2e). */

import type { ProfileConnection, ProfileName } from './profiles';

export type HostName = 'crm' | 'universal' | 'los' | 'calendar';
export type PagingStyle = 'nextLink' | 'next' | 'offset';
export type RecordKind = 'people' | 'credentials' | 'borrowers' | 'documents' | 'webhooks';

export const HOST_NAMES: readonly HostName[] = ['crm', 'universal', 'los', 'calendar'];

/** What a sandbox accepts unless its options say otherwise; the client secret also signs webhook deliveries. */
export const SANDBOX_DEFAULTS = {
	token: 'sandbox-token',
	clientId: 'sandbox-client-id',
	clientSecret: 'sandbox-client-secret',
	credentialIds: ['cred-default', 'cred-other'],
} as const;

export interface SandboxOptions {
	token?: string;
	/** The client secret: verifies signed JWTs and signs webhook deliveries. */
	jwtSecret?: string;
	jwtIssuer?: string;
	credentialIds?: string[];
	/** People seeded under the FIRST credential id only. */
	people?: number;
	/**
	 * Seeded rows of each published CRM entity without a count of its own (users, teams, lists, smart
	 * lists, appointment types and outcomes, notes...): 3 unless given. The big seed (cli.ts --big)
	 * has enough to page in the editor's pickers.
	 */
	crmRows?: number;
	seed?: number;
	latencyMs?: number;
	paging?: PagingStyle;
	maxPageSize?: number;
	host?: string;
	ports?: Partial<Record<HostName, number>>;
	/**
	 * Connections beside credentialIds whose records take a connected system's shape (profiles.ts):
	 * by ID, its profile and starting entitiesToSync. Each holds the seeded people too.
	 */
	connections?: Record<string, ProfileConnection>;
}

export interface RecordedRequest {
	seq: number;
	/** When its request line arrived (epoch ms): rates are measured from it. */
	receivedAt: number;
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

/** How the following webhook deliveries are sent ("twice": every event two times with the same eventId). */
export type DeliveryMode = 'normal' | 'twice' | 'badSignature' | 'unsigned';
export type SignatureKind = 'good' | 'bad' | 'none';
export const DELIVERY_MODES: readonly DeliveryMode[] = [
	'normal',
	'twice',
	'badSignature',
	'unsigned',
];

/** One POST to a webhook receiver, as GET /__sandbox/deliveries lists it. */
export interface DeliveryAttempt {
	eventId: string;
	event: string;
	url: string;
	/** The receiver's HTTP status, or 0 on a network error. */
	status: number;
	signature: SignatureKind;
}

export interface Sandbox {
	urls: Record<HostName, string>;
	token: string;
	jwtSecret: string;
	jwtIssuer: string;
	/** Key of the X-Service-Signature HMAC on webhook deliveries (the client secret). */
	signingSecret: string;
	credentialIds: string[];
	defaultCredentialId: string;
	requests: RecordedRequest[];
	/** Every webhook delivery attempt, in order; cleared in place on reset. */
	deliveries: DeliveryAttempt[];
	inject(fault: FaultSpec): void;
	clearFaults(): void;
	reset(): void;
	count(kind: RecordKind, credentialId?: string): number;
	people(credentialId?: string): Record<string, unknown>[];
	/** Adds people as creates would, after the seeded ones (e.g. LOOKALIKES); their IDs as shown. */
	addPeople(credentialId: string, people: readonly Record<string, unknown>[]): (number | string)[];
	addBorrower(credentialId: string, id: string, fields?: Record<string, unknown>): void;
	/** A loan document under that credential, as a create would leave it. */
	addDocument(credentialId: string, id: string, fields?: Record<string, unknown>): void;
	addWebhook(credentialId: string, id: string, fields?: Record<string, unknown>): void;
	/** How a stored ID (e.g. `p_1`, `note-seed-1`) appears to this connection: per its profile. */
	shownId(credentialId: string, id: string): number | string;
	/** A record (or an answer) as this connection's profile shows it (profiles.ts). */
	shown(credentialId: string, record: unknown): unknown;
	profileOf(credentialId: string): ProfileName;
	setPaging(style: PagingStyle): void;
	setLatency(ms: number): void;
	setDeliveryMode(mode: DeliveryMode): void;
	/** Sends a recorded event once more (no retries) and resolves to the receiver's status (0: network error). */
	redeliver(eventId: string, signature?: SignatureKind): Promise<number>;
	/** Resolves once no delivery (or retry) is pending. */
	deliveriesSettled(): Promise<void>;
	close(): Promise<void>;
}

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** An error answer: thrown by validation and handlers, turned into `{ "error": message }` with this status. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const badRequest = (message: string): never => {
	throw new HttpError(400, message);
};

export interface Reply {
	status: number;
	body: string;
	contentType?: string;
	headers?: Record<string, string>;
}

export const jsonReply = (status: number, value: unknown): Reply => ({
	status,
	body: JSON.stringify(value),
});

export const nowIso = (): string => new Date().toISOString();
