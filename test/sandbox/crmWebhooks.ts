/**
 * The CRM host's webhooks (crm-endpoints.md): `GET`/`POST /api/webhooks`, `PUT`/`DELETE
 * /api/webhooks/{id}`. They live with the calendar host's in each connection's webhooks (one
 * collection of the service), so a seeded webhook such as w-1 is listed too; one with a url and an
 * event is a delivery target, so the events of the sandbox reach what a trigger created.
 */
import type { Connection } from './records';
import { makeWebhook } from './records';
import type { ApiEnvironment, ApiRequest, Route } from './routes';
import { requireNonEmptyString, validateFields, WEBHOOK_FIELDS } from './schema';
import { badRequest, HttpError, jsonReply, type JsonObject, type Reply } from './types';

/** Ids handed out per connection: `wh-1`, `wh-2`, … never reused after a delete. */
const created = new WeakMap<Connection, number>();

/** The route for a CRM path, or undefined when it is not one of the webhooks endpoints. */
export function crmWebhookRoute(
	env: ApiEnvironment,
	path: string,
	param: (prefix: string) => string | undefined,
): Route | undefined {
	if (path === '/api/webhooks')
		return { methods: { GET: (r) => list(env, r), POST: (r) => create(env, r) } };
	const id = param('/api/webhooks/');
	if (id === undefined) return undefined;
	return { methods: { PUT: (r) => update(env, r), DELETE: (r) => remove(env, r) }, param: id };
}

function count(query: Record<string, string>, name: string, fallback: number): number {
	const value = query[name];
	if (value === undefined) return fallback;
	if (!/^\d+$/.test(value)) badRequest(`query parameter '${name}' must be a non-negative integer`);
	return Number(value);
}

/** One page by offset; `nextLink` names the next page while there is one. */
function list(env: ApiEnvironment, request: ApiRequest): Reply {
	const all = [...env.records.connection(request.credentialId).webhooks.values()];
	const limit = Math.min(Math.max(count(request.query, 'limit', 100), 1), env.maxPageSize);
	const offset = count(request.query, 'offset', 0);
	const page = all.slice(offset, offset + limit);
	const more = offset + page.length < all.length;
	const nextLink = more
		? `${env.urls.crm}/api/webhooks?offset=${offset + page.length}&limit=${limit}`
		: null;
	const _metadata = {
		collection: 'webhooks',
		offset,
		limit,
		total: all.length,
		next: null,
		nextLink,
	};
	return jsonReply(200, { _metadata, webhooks: page });
}

function create(env: ApiEnvironment, request: ApiRequest): Reply {
	validateFields(request.body, WEBHOOK_FIELDS, 'a webhook');
	requireNonEmptyString(request.body, 'url');
	requireNonEmptyString(request.body, 'event');
	const connection = env.records.connection(request.credentialId);
	const n = (created.get(connection) ?? 0) + 1;
	created.set(connection, n);
	const id = `wh-${n}`;
	const webhook = makeWebhook(id, { ...request.body, status: 'active' });
	connection.webhooks.set(id, webhook);
	connection.deliveryTargets.add(id);
	return jsonReply(201, webhook);
}

function update(env: ApiEnvironment, request: ApiRequest): Reply {
	validateFields(request.body, WEBHOOK_FIELDS, 'a webhook');
	const connection = env.records.connection(request.credentialId);
	const current = connection.webhooks.get(request.param);
	if (!current) throw new HttpError(404, 'webhook not found');
	const updated: JsonObject = { ...current, ...request.body, id: request.param };
	connection.webhooks.set(request.param, updated);
	if (typeof updated.url === 'string' && typeof updated.event === 'string')
		connection.deliveryTargets.add(request.param);
	return jsonReply(200, updated);
}

/** 200 with an empty body, as crm-endpoints.md shows it. */
function remove(env: ApiEnvironment, request: ApiRequest): Reply {
	const connection = env.records.connection(request.credentialId);
	if (!connection.webhooks.delete(request.param)) throw new HttpError(404, 'webhook not found');
	connection.deliveryTargets.delete(request.param);
	return { status: 200, body: '' };
}
