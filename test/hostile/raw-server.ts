/**
 * A service on 127.0.0.1 that answers with raw bytes, for what an HTTP server library will not send:
 * headers and then silence, an unterminated chunked body, a status line that is not HTTP, 40 KB of
 * headers. It records each request (whether it was read whole) and when each connection closed, so a
 * test can prove how long an attempt held the connection and that nothing was left open.
 */
import * as net from 'net';
import type { AddressInfo } from 'net';

export interface RawRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: string;
	/** When the request had been read whole, and when its connection closed (undefined while open). */
	readAt: number;
	closedAt?: number;
}

/** What to write once a request has been read; `count` is its 1-based number. Return nothing to stay silent. */
export type RawScript = (request: RawRequest, socket: net.Socket, count: number) => void;

export interface RawServer {
	origin: string;
	requests: RawRequest[];
	/** Connections still open now. */
	openConnections(): number;
	script(handler: RawScript): void;
	close(): Promise<void>;
}

function parseRequest(
	buffer: Buffer,
): { request: Omit<RawRequest, 'readAt'>; rest: Buffer } | undefined {
	const end = buffer.indexOf('\r\n\r\n');
	if (end < 0) return undefined;
	const [line, ...headerLines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
	const headers: Record<string, string> = {};
	for (const headerLine of headerLines) {
		const colon = headerLine.indexOf(':');
		headers[headerLine.slice(0, colon).trim().toLowerCase()] = headerLine.slice(colon + 1).trim();
	}
	const length = Number(headers['content-length'] ?? 0);
	if (buffer.length < end + 4 + length) return undefined;
	const [method, url] = line.split(' ');
	const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
	return { request: { method, url, headers, body }, rest: buffer.subarray(end + 4 + length) };
}

export async function startRawServer(): Promise<RawServer> {
	const requests: RawRequest[] = [];
	const sockets = new Set<net.Socket>();
	let handler: RawScript = (_request, socket) =>
		socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
	const server = net.createServer((socket) => {
		sockets.add(socket);
		let buffer: Buffer = Buffer.alloc(0);
		let current: RawRequest | undefined;
		socket.on('data', (chunk: Buffer) => {
			buffer = Buffer.concat([buffer, chunk]);
			const parsed = parseRequest(buffer);
			if (!parsed) return;
			buffer = parsed.rest;
			current = { ...parsed.request, readAt: Date.now() };
			requests.push(current);
			handler(current, socket, requests.length);
		});
		socket.on('error', () => undefined);
		socket.on('close', () => {
			sockets.delete(socket);
			if (current) current.closedAt = Date.now();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		openConnections: () => sockets.size,
		script: (next) => {
			handler = next;
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
