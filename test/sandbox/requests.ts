/**
 * What every request to the service passes before its handler runs: the bearer token, an endpoint
 * of this host and method, the X-Service-Credential-Id header (not on the universal host) and, for
 * POST, PUT and a DELETE with a body, a JSON object body. Also the raw-request helpers of the server.
 */
import type * as http from 'http';

import { bearerTokenError, type TokenRules } from './auth';
import type { Profiles } from './profiles';
import type { Records } from './records';
import type { Api, RecordChange } from './routes';
import {
	HttpError,
	isJsonObject,
	jsonReply,
	type HostName,
	type JsonObject,
	type Reply,
} from './types';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Headers received, lower-cased (node already lower-cases), repeated ones joined as node does. */
export function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}

/** Reads the whole body as UTF-8; beyond the cap the rest is drained and discarded. */
export function readBody(
	request: http.IncomingMessage,
): Promise<{ text: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		const done = (): void =>
			resolve({ text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge });
		request.on('end', done);
		request.on('close', done); // aborted uploads: resolve anyway (resolve is idempotent)
	});
}

export interface ApiService {
	api: Api;
	records: Records;
	tokens: TokenRules;
	profiles: Profiles;
}

export interface ApiCall {
	host: HostName;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: http.IncomingHttpHeaders;
	rawBody: string;
	/** Receives the changes the handler made (for webhook events). */
	changes: RecordChange[];
}

/** Auth, routing, headers, body and validation, then the handler. Never throws. */
export function answerApiRequest(
	service: ApiService,
	{ host, method, path, query, headers, rawBody, changes }: ApiCall,
): Reply {
	try {
		const authError = bearerTokenError(headers.authorization, service.tokens);
		if (authError) throw new HttpError(401, authError, { 'www-authenticate': 'Bearer' });

		const route = service.api.route(host, path);
		if (!route) throw new HttpError(404, `no endpoint ${path} on the ${host} host`);
		const handler = route.methods[method];
		if (!handler) {
			const allow = Object.keys(route.methods).join(', ');
			throw new HttpError(405, `method ${method} not allowed on ${path} (allowed: ${allow})`, {
				allow,
			});
		}

		let credentialId = '';
		if (host !== 'universal') {
			const raw = headers['x-service-credential-id'];
			const value = Array.isArray(raw) ? raw[0] : raw;
			if (value === undefined || value.trim() === '')
				throw new HttpError(400, 'missing X-Service-Credential-Id header');
			if (!service.records.credentials.has(value))
				throw new HttpError(403, 'credential not allowed: unknown X-Service-Credential-Id');
			credentialId = value;
		}

		let body: JsonObject = {};
		// DELETE /api/lists/{id}/people carries a body too (crm-endpoints.md); other DELETEs have none.
		if (method === 'POST' || method === 'PUT' || (method === 'DELETE' && rawBody !== '')) {
			const contentType = headers['content-type'];
			const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
			if (mediaType !== 'application/json') {
				throw new HttpError(
					415,
					`Content-Type must be application/json (got ${contentType === undefined ? 'none' : `'${contentType}'`})`,
				);
			}
			let parsed: unknown;
			try {
				parsed = JSON.parse(rawBody);
			} catch {
				throw new HttpError(
					400,
					rawBody.trim() === ''
						? 'request body is empty; a JSON object is required'
						: 'request body is not valid JSON',
				);
			}
			if (!isJsonObject(parsed)) throw new HttpError(400, 'request body must be a JSON object');
			body = parsed;
		}

		const call = { host, method, path, query, body, param: route.param ?? '' };
		// The connection's profile (profiles.ts): IDs in as stored, the answer out in its shape.
		const profiled = host === 'universal' ? call : service.profiles.incoming(credentialId, call);
		if ('status' in profiled) return profiled;
		let reply: Reply;
		try {
			reply = handler({ ...profiled, credentialId, changes });
		} catch (error) {
			reply = errorReply(error);
		}
		return host === 'universal' ? reply : service.profiles.outgoing(credentialId, profiled, reply);
	} catch (error) {
		return errorReply(error);
	}
}

/** A thrown HttpError as `{ "error": message }` with its status; anything else as a 500. */
function errorReply(error: unknown): Reply {
	if (error instanceof HttpError)
		return {
			status: error.status,
			body: JSON.stringify({ error: error.message }),
			headers: error.headers,
		};
	return jsonReply(500, { error: `sandbox internal error: ${(error as Error).message}` });
}
