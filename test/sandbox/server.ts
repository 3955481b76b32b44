/**
 * Sandbox: an in-memory fake of the whole Integration Service API (four hosts: crm, universal, los,
 * calendar), built on node's `http`, `crypto` and `url` only.
 *
 * Why it exists: the real service cannot be reached from tests, so this server checks what the real
 * one would check (auth, the credential-id header, content type, field types), lets tests inject
 * faults (faults.ts) to exercise the node's retry and error handling, and delivers webhook events
 * (events.ts). Everything it received is kept in `requests` for assertions.
 *
 * Behaviour follows /work/shared/spec/interface-specification.md and decisions.md; where both are
 * silent the choices are noted inline. This file is the server's lifecycle and request pipeline
 * (log, fault, answer, events); requests.ts checks each API request, routes.ts answers it, records.ts
 * holds the data, seed.ts makes it, schema.ts validates fields, auth.ts tokens, faults.ts faults,
 * events.ts webhook deliveries, control.ts the /__sandbox/ endpoints, credential.ts the credential,
 * profiles.ts the shapes a connection's records take (numeric IDs, UUIDs, a 422 with `errors`, the
 * entitiesToSync opt-in; `SandboxOptions.connections`, docs/development.md).
 */
import * as http from 'http';
import type { Socket } from 'net';
import { URLSearchParams } from 'url';

import { handleControl, type ControlTarget } from './control';
import { EventDelivery } from './events';
import { describeFault, FaultQueue, faultReply, replacesAnswer } from './faults';
import { Profiles, type ProfileName } from './profiles';
import { makeBorrower, makeWebhook, Records } from './records';
import { Api, type RecordChange } from './routes';
import { answerApiRequest, flattenHeaders, MAX_BODY_BYTES, readBody } from './requests';
import { generatePeople, SEED_TIME } from './seed';
import {
	HOST_NAMES,
	jsonReply,
	SANDBOX_DEFAULTS,
	type DeliveryAttempt,
	type DeliveryMode,
	type FaultSpec,
	type HostName,
	type PagingStyle,
	type RecordedRequest,
	type RecordKind,
	type Reply,
	type Sandbox,
	type SandboxOptions,
	type SignatureKind,
} from './types';

export { signJwtForTest } from './auth';
export { signDelivery } from './events';
export { sandboxCredential, type SandboxCredentialMode } from './credential';
export * from './types';

class SandboxServer implements Sandbox, ControlTarget {
	urls = {} as Record<HostName, string>;
	readonly token: string;
	readonly jwtSecret: string;
	readonly jwtIssuer: string;
	readonly signingSecret: string;
	/** The log; cleared in place on reset so references held by callers stay valid. */
	readonly requests: RecordedRequest[] = [];
	readonly faults: FaultQueue;
	readonly records: Records;
	readonly events: EventDelivery;
	readonly profiles: Profiles;
	paging: PagingStyle;
	latency: number;

	private readonly api: Api;
	private requestSeq = 0;
	private servers: http.Server[] = [];
	private sockets = new Set<Socket>();
	private timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
	private closed = false;
	/** The people seeded at start-up, restored by reset(). */
	private readonly initialPeople: string[];

	constructor(private readonly options: SandboxOptions) {
		this.token = options.token ?? SANDBOX_DEFAULTS.token;
		this.jwtSecret = options.jwtSecret ?? SANDBOX_DEFAULTS.clientSecret;
		this.jwtIssuer = options.jwtIssuer ?? SANDBOX_DEFAULTS.clientId;
		this.signingSecret = this.jwtSecret;
		const seed = options.seed ?? 1;
		const initialIds = options.credentialIds?.length
			? [...options.credentialIds]
			: [...SANDBOX_DEFAULTS.credentialIds];
		this.initialPeople = generatePeople(Math.max(0, Math.floor(options.people ?? 0)), seed);
		const profiled = Object.keys(options.connections ?? {});
		this.records = new Records([...initialIds, ...profiled], this.initialPeople);
		this.profiles = new Profiles(options.connections ?? {}, this.records);
		this.profiles.seed();
		this.faults = new FaultQueue(seed);
		this.paging = options.paging ?? 'nextLink';
		this.latency = options.latencyMs ?? 0;
		this.events = new EventDelivery({
			signingSecret: this.signingSecret,
			sleep: (ms) => this.sleep(ms),
			isClosed: () => this.closed,
		});
		this.api = new Api({
			records: this.records,
			urls: this.urls,
			paging: () => this.paging,
			maxPageSize: options.maxPageSize ?? 100,
			crmRows: options.crmRows,
			cursorKey: `sandbox-cursor-${seed}`,
		});
	}

	get defaultCredentialId(): string {
		return this.records.defaultCredentialId;
	}

	/** Known connection ids (initial ones first, then those created through POST /api/credentials). */
	get credentialIds(): string[] {
		return [...this.records.credentials.keys()];
	}

	get deliveries(): DeliveryAttempt[] {
		return this.events.attempts;
	}

	inject(fault: FaultSpec): void {
		this.faults.inject(fault);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	/** Clears log, faults, deliveries and records, restores start-up paging/latency, and reseeds. */
	reset(): void {
		this.requests.length = 0;
		this.requestSeq = 0;
		this.faults.reset();
		this.events.reset();
		this.paging = this.options.paging ?? 'nextLink';
		this.latency = this.options.latencyMs ?? 0;
		this.records.reseedWith(this.initialPeople);
		this.profiles.seed();
		this.profiles.reset();
	}

	/** Reseeds with `count` generated people (and nothing created) until the next reset. */
	setPeople(count: number): void {
		if (!Number.isInteger(count) || count < 0 || count > 2_000_000)
			throw new Error('people must be a whole number from 0 to 2000000');
		this.records.reseedWith(generatePeople(count, this.options.seed ?? 1));
		this.profiles.seed();
	}

	count(kind: RecordKind, credentialId?: string): number {
		return this.records.count(kind, credentialId);
	}

	/**
	 * Adds people after the seeded ones, as creates through POST would (ids p_N, the same times), e.g.
	 * LOOKALIKES; returns their IDs as the connection shows them. Nothing is validated: a connected
	 * system may hold shapes the API would refuse on a create.
	 */
	addPeople(credentialId: string, people: readonly Record<string, unknown>[]): (number | string)[] {
		const connection = this.records.connection(credentialId);
		return people.map((fields) => {
			const id = `p_${++this.records.counters.person}`;
			const name = `${String(fields.firstName ?? '')} ${String(fields.lastName ?? '')}`.trim();
			const at = SEED_TIME;
			const person = { id, name, ...fields, created: at, updated: at, serviceUpdated: at };
			const json = JSON.stringify({ ...person, originalIds: { crm: id }, original: fields });
			this.records.addPerson(connection, id, json);
			return this.shownId(credentialId, id);
		});
	}

	people(credentialId?: string): Record<string, unknown>[] {
		const connection = this.records.connections.get(credentialId ?? this.defaultCredentialId);
		return connection
			? this.records
					.peopleJson(connection, 0, Infinity)
					.map((json) => JSON.parse(json) as Record<string, unknown>)
			: [];
	}

	addBorrower(credentialId: string, id: string, fields: Record<string, unknown> = {}): void {
		this.records.connection(credentialId).borrowers.set(id, makeBorrower(id, fields));
	}

	addDocument(credentialId: string, id: string, fields: Record<string, unknown> = {}): void {
		const at = new Date().toISOString();
		const document = { ...fields, id, created: at, updated: at };
		this.records.connection(credentialId).documents.set(id, document);
	}

	/** With both `url` and `event` the webhook is a delivery target, as after such a PUT. */
	addWebhook(credentialId: string, id: string, fields: Record<string, unknown> = {}): void {
		const connection = this.records.connection(credentialId);
		connection.webhooks.set(id, makeWebhook(id, fields));
		if (typeof fields.url === 'string' && typeof fields.event === 'string')
			connection.deliveryTargets.add(id);
	}

	shownId(credentialId: string, id: string): number | string {
		return this.profiles.shownId(this.profiles.profileOf(credentialId), id);
	}

	shown(credentialId: string, record: unknown): unknown {
		return this.profiles.shape(this.profiles.profileOf(credentialId), record);
	}

	profileOf(credentialId: string): ProfileName {
		return this.profiles.profileOf(credentialId);
	}

	setPaging(style: PagingStyle): void {
		if (!['nextLink', 'next', 'offset'].includes(style))
			throw new Error(`unknown paging style '${style}'`);
		this.paging = style;
	}

	setLatency(ms: number): void {
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
			throw new Error('latency must be a non-negative number');
		this.latency = ms;
	}

	setDeliveryMode(mode: DeliveryMode): void {
		this.events.setMode(mode);
	}

	async redeliver(eventId: string, signature?: SignatureKind): Promise<number> {
		return await this.events.redeliver(eventId, signature);
	}

	async deliveriesSettled(): Promise<void> {
		await this.events.settled();
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		// Wake every pending delay so no handler or delivery retry keeps a timer (and jest) alive.
		for (const entry of this.timers) {
			clearTimeout(entry.timer);
			entry.resolve();
		}
		this.timers.clear();
		this.events.abort();
		for (const socket of this.sockets) socket.destroy();
		await Promise.all(
			this.servers.map(
				(server) =>
					new Promise<void>((resolve) => {
						server.close(() => resolve());
						server.closeAllConnections();
					}),
			),
		);
		await this.events.settled();
	}

	async listen(): Promise<void> {
		const bind = this.options.host ?? '127.0.0.1';
		try {
			for (const host of HOST_NAMES) {
				const server = http.createServer((request, response) => {
					this.onRequest(host, request, response).catch((error: unknown) => {
						// Last resort: never let a handler bug crash the process.
						if (!response.headersSent && !response.destroyed) {
							response.writeHead(500, { 'content-type': 'application/json' });
							response.end(
								JSON.stringify({ error: `sandbox internal error: ${(error as Error).message}` }),
							);
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
				server.on('clientError', (_error, socket) => socket.destroy());
				this.servers.push(server);
				await new Promise<void>((resolve, reject) => {
					server.once('error', reject);
					server.listen(this.options.ports?.[host] ?? 0, bind, () => {
						server.off('error', reject);
						resolve();
					});
				});
				const address = server.address();
				const port = typeof address === 'object' && address ? address.port : 0;
				const shown = bind.includes(':') ? `[${bind}]` : bind;
				this.urls[host] = `http://${shown}:${port}`;
			}
		} catch (error) {
			await this.close();
			throw error;
		}
	}

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

	private async onRequest(
		host: HostName,
		request: http.IncomingMessage,
		response: http.ServerResponse,
	): Promise<void> {
		const receivedAt = Date.now();
		// A client that gives up mid-delay must not produce an unhandled error.
		request.on('error', () => undefined);
		response.on('error', () => undefined);

		const rawUrl = request.url ?? '/';
		const queryStart = rawUrl.indexOf('?');
		const path = queryStart >= 0 ? rawUrl.slice(0, queryStart) : rawUrl;
		const queryString = queryStart >= 0 ? rawUrl.slice(queryStart + 1) : '';
		const method = (request.method ?? 'GET').toUpperCase();
		const { text: rawBody, tooLarge } = await readBody(request);

		if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
			await handleControl(this, method, path, queryString, rawBody, response);
			return;
		}

		const query: Record<string, string> = {};
		for (const [name, value] of new URLSearchParams(queryString))
			if (!(name in query)) query[name] = value;
		let parsed: unknown;
		try {
			parsed = rawBody === '' ? undefined : JSON.parse(rawBody);
		} catch {
			parsed = undefined;
		}
		const logged: RecordedRequest = {
			seq: ++this.requestSeq,
			receivedAt,
			host,
			method,
			url: rawUrl,
			path,
			query,
			headers: flattenHeaders(request.headers),
			rawBody,
			body: parsed,
			status: 0,
		};
		this.requests.push(logged);

		if (tooLarge) {
			await this.send(
				request,
				response,
				logged,
				jsonReply(413, { error: `request body larger than ${MAX_BODY_BYTES} bytes` }),
			);
			return;
		}

		const fault = this.faults.take(host, method, path);
		if (fault) logged.fault = describeFault(fault);
		if (fault?.delayMs) await this.sleep(fault.delayMs);
		const faultAnswers = !!fault && replacesAnswer(fault);
		const changes: RecordChange[] = [];
		// afterProcessing: the operation happens (the record exists, its event fires) but the client sees a failure.
		const reply =
			faultAnswers && !fault.afterProcessing
				? undefined
				: answerApiRequest(
						{ api: this.api, records: this.records, tokens: this, profiles: this.profiles },
						{ host, method, path, query, headers: request.headers, rawBody, changes },
					);
		if (faultAnswers) {
			const instead = faultReply(fault);
			if (instead === 'drop') {
				await this.sleep(this.latency);
				logged.status = 0;
				request.socket.destroy();
			} else {
				await this.send(request, response, logged, instead);
			}
		} else {
			await this.send(request, response, logged, reply!);
		}
		for (const change of changes) this.raise(change);
	}

	/** Hands a change to the event delivery, for each registered webhook of that connection and event. */
	private raise(change: RecordChange): void {
		const connection = this.records.connections.get(change.credentialId);
		if (!connection) return;
		const urls: string[] = [];
		for (const id of connection.deliveryTargets) {
			const webhook = connection.webhooks.get(id);
			if (webhook?.event === change.event && typeof webhook.url === 'string')
				urls.push(webhook.url);
		}
		if (urls.length > 0) this.events.raise(this.profiles.shownChange(change), urls);
	}

	private async send(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		logged: RecordedRequest,
		reply: Reply,
	): Promise<void> {
		await this.sleep(this.latency);
		// The client may have gone away during a delay: writing then is pointless (and must not throw).
		if (response.destroyed || request.socket.destroyed || response.writableEnded) {
			logged.status = 0;
			return;
		}
		logged.status = reply.status;
		const body = Buffer.from(reply.body, 'utf8');
		response.writeHead(reply.status, {
			'content-type': reply.contentType ?? 'application/json; charset=utf-8',
			'content-length': String(body.length),
			...(reply.headers ?? {}),
		});
		response.end(body);
	}
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = new SandboxServer(options);
	await sandbox.listen();
	return sandbox;
}
