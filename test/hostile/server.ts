/**
 * A misbehaving service on 127.0.0.1 whose every answer a test scripts: redirects, endless or repeating
 * pages, dripping, oversized and cut-off bodies, echoed secrets. It records what reached it (method, URL,
 * headers, body, time), so a test can prove what did not reach it too.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface Received {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	at: number;
}

export type Script = (
	request: Received,
	res: http.ServerResponse,
	count: number,
) => void | Promise<void>;

export interface HostileServer {
	origin: string;
	received: Received[];
	/** What to answer from now on; `count` is the 1-based number of the request. */
	script(handler: Script): void;
	close(): Promise<void>;
}

export const sendJson = (
	res: http.ServerResponse,
	status: number,
	body: unknown,
	headers: http.OutgoingHttpHeaders = {},
): void => {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
};

export async function startHostile(): Promise<HostileServer> {
	const received: Received[] = [];
	const sockets = new Set<import('net').Socket>();
	let handler: Script = (_request, res) => sendJson(res, 404, { error: 'not scripted' });
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request: Received = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
				at: Date.now(),
			};
			received.push(request);
			Promise.resolve(handler(request, res, received.length)).catch(() => res.destroy());
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		received,
		script: (next) => {
			handler = next;
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * A hostile server for the test file or describe block that calls this: started before its tests,
 * closed after them, and its record of requests emptied before each test.
 */
export function useHostile(): HostileServer {
	let server: HostileServer | undefined;
	beforeAll(async () => {
		server = await startHostile();
	});
	afterAll(async () => await server?.close());
	beforeEach(() => {
		current().received.length = 0;
	});
	const current = (): HostileServer => {
		if (!server) throw new Error('useHostile: the server starts in beforeAll');
		return server;
	};
	return {
		get origin() {
			return current().origin;
		},
		get received() {
			return current().received;
		},
		script: (handler) => current().script(handler),
		close: async () => await current().close(),
	};
}

/** A port on 127.0.0.1 where nothing listens: connections to it are refused. */
export async function refusingOrigin(): Promise<string> {
	const probe = http.createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const { port } = probe.address() as AddressInfo;
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return `http://127.0.0.1:${port}`;
}

/** Credential data whose four hosts are all `origin`, in access-token mode unless overridden. */
export function credentialsFor(
	origin: string,
	overrides: Record<string, string> = {},
): Record<string, string> {
	return {
		crmUrl: origin,
		universalUrl: origin,
		losUrl: origin,
		calendarUrl: origin,
		credentialId: 'cred-1',
		authentication: 'accessToken',
		accessToken: 'token-123456',
		...overrides,
	};
}
