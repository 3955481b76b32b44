/**
 * Tests of the sandbox itself, over real HTTP with node's global fetch. The node's own tests rely on
 * the sandbox checking what the real service would check, so these pin that behaviour down.
 */
import * as crypto from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';

import { useSandbox } from '../harness/use-sandbox';
import { HostName, Sandbox, signJwtForTest, startSandbox } from './server';

// Loose JSON shape for assertions on response bodies: the tests read fields the types cannot know
// (eslint.tools.config.mjs allows `any` in this file for it).
type J = Record<string, any>;

interface CallOptions {
	body?: unknown;
	/** Sent verbatim instead of JSON.stringify(body). */
	raw?: string;
	headers?: Record<string, string>;
	/** null = no Authorization header. */
	token?: string | null;
	/** null = no X-Service-Credential-Id header; default: the sandbox's default id on crm/los/calendar. */
	cred?: string | null;
	signal?: AbortSignal;
}

interface CallResult {
	status: number;
	headers: Headers;
	text: string;
	json: J;
}

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 25 });

async function call(
	host: HostName,
	method: string,
	path: string,
	opts: CallOptions = {},
): Promise<CallResult> {
	const headers: Record<string, string> = {};
	const token = opts.token === undefined ? sandbox.token : opts.token;
	if (token !== null) headers.authorization = `Bearer ${token}`;
	const cred =
		opts.cred === undefined
			? host === 'universal'
				? null
				: sandbox.defaultCredentialId
			: opts.cred;
	if (cred !== null) headers['x-service-credential-id'] = cred;
	let body: string | undefined = opts.raw;
	if (opts.body !== undefined) {
		body = JSON.stringify(opts.body);
		headers['content-type'] = 'application/json';
	}
	Object.assign(headers, opts.headers ?? {});
	const res = await fetch(`${sandbox.urls[host]}${path}`, {
		method,
		headers,
		body,
		signal: opts.signal,
	});
	const text = await res.text();
	let json: J = {};
	try {
		json = JSON.parse(text) as J;
	} catch {
		// non-JSON bodies (html, malformed) are asserted through `text`
	}
	return { status: res.status, headers: res.headers, text, json };
}

const listPeople = (query = '', opts: CallOptions = {}): Promise<CallResult> =>
	call('crm', 'GET', `/api/people${query}`, opts);

function jwt(overrides: Record<string, unknown> = {}, secret = sandbox.jwtSecret): string {
	const now = Math.floor(Date.now() / 1000);
	return signJwtForTest(
		{ iss: sandbox.jwtIssuer, sub: 'tenant-1', iat: now, exp: now + 900, ...overrides },
		secret,
	);
}

const validDocument = {
	name: 'Pay stub',
	category: 'income',
	status: 'received',
	type: 'pdf',
	fileUrl: 'https://files.example.test/paystub.pdf',
	mimeType: 'application/pdf',
	fileSignature: 'sha256:abc',
	folderId: 'folder-1',
};

describe('authentication', () => {
	it('accepts the static token', async () => {
		const r = await listPeople();
		expect(r.status).toBe(200);
		expect(r.json._metadata.total).toBe(25);
	});

	it('accepts a valid HS512 JWT on every host', async () => {
		const token = jwt();
		expect((await listPeople('', { token })).status).toBe(200);
		const r = await call('universal', 'POST', '/api/oauth/authorize-url', {
			token,
			body: { appKey: 'crm-app' },
		});
		expect(r.status).toBe(200);
		expect(
			(await call('los', 'PUT', '/api/borrowers/b-1', { token, body: { name: 'X' } })).status,
		).toBe(200);
		expect(
			(
				await call('calendar', 'PUT', '/api/webhooks/w-1', {
					token,
					body: { url: 'https://h.test' },
				})
			).status,
		).toBe(200);
	});

	it('rejects bad, expired, missing and malformed tokens with 401 and a reason, never echoing the token', async () => {
		const now = Math.floor(Date.now() / 1000);
		const badSig = jwt({}, 'wrong-secret');
		const cases: [string | null, string][] = [
			[badSig, 'invalid signature'],
			[jwt({ iat: now - 2000, exp: now - 60 }), 'token expired'],
			[null, 'missing bearer token'],
			[jwt({ iss: 'someone-else' }), 'issuer'],
			[jwt({ sub: '' }), 'subject'],
			['not-a-token', 'invalid token'],
		];
		for (const [token, reason] of cases) {
			const r = await listPeople('', { token });
			expect(r.status).toBe(401);
			expect(r.json.error).toContain(reason);
			if (token) expect(r.text).not.toContain(token);
		}
		// A JWT whose header claims another algorithm is refused even if otherwise well-formed.
		const [, payload] = jwt().split('.');
		const hs256Header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString(
			'base64url',
		);
		const r = await listPeople('', { token: `${hs256Header}.${payload}.abc` });
		expect(r.status).toBe(401);
		expect(r.json.error).toContain('HS512');
		// Auth applies to the universal host too.
		expect(
			(await call('universal', 'POST', '/api/credentials', { token: null, body: {} })).status,
		).toBe(401);
	});
});

describe('routing and headers', () => {
	it('requires a known X-Service-Credential-Id on crm/los/calendar but not on universal', async () => {
		const missing = await listPeople('', { cred: null });
		expect(missing.status).toBe(400);
		expect(missing.json.error).toContain('X-Service-Credential-Id');
		const unknown = await call('los', 'PUT', '/api/borrowers/b-1', { cred: 'cred-nope', body: {} });
		expect(unknown.status).toBe(403);
		expect(unknown.json.error).toContain('credential not allowed');
		expect(
			(await call('calendar', 'PUT', '/api/webhooks/w-1', { cred: null, body: {} })).status,
		).toBe(400);
		const universal = await call('universal', 'POST', '/api/credentials', {
			body: { appKey: 'a', userInputs: {} },
		});
		expect(universal.status).toBe(200);
	});

	it('serves each endpoint only on its own host; unknown path 404, wrong method 405', async () => {
		expect((await call('crm', 'POST', '/api/documents', { body: validDocument })).status).toBe(404);
		expect((await call('los', 'GET', '/api/people')).status).toBe(404);
		expect((await call('crm', 'GET', '/api/people/')).status).toBe(404);
		expect((await call('universal', 'GET', '/api/nothing')).status).toBe(404);
		const wrong = await call('crm', 'DELETE', '/api/people');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('GET, POST');
		// GET and DELETE of one borrower are published endpoints now (issue 30); POST is none.
		expect((await call('los', 'POST', '/api/borrowers/b-1', { body: {} })).status).toBe(405);
	});

	it('requires application/json and a JSON object body', async () => {
		const noType = await call('crm', 'POST', '/api/people', { raw: '{"firstName":"A"}' });
		expect(noType.status).toBe(415);
		const withCharset = await call('crm', 'POST', '/api/people', {
			raw: '{"firstName":"A"}',
			headers: { 'content-type': 'application/json; charset=utf-8' },
		});
		expect(withCharset.status).toBe(200);
		const ct = { 'content-type': 'application/json' };
		expect(
			(await call('crm', 'POST', '/api/people', { raw: '[1,2]', headers: ct })).json.error,
		).toContain('JSON object');
		const broken = await call('crm', 'POST', '/api/people', { raw: '{"firstName":', headers: ct });
		expect(broken.status).toBe(400);
		expect(broken.json.error).toContain('not valid JSON');
	});
});

describe('people', () => {
	it('creates a person: echoes writable fields, drops rating, adds service fields', async () => {
		const body = {
			firstName: 'Ada',
			lastName: 'Lovelace',
			emails: [{ value: 'ada@example.test', type: 'work', status: 'Valid', isPrimary: true }],
			tags: ['vip'],
			rating: 5,
			averagePrice: 350000,
			communicationsConsent: { email: true, postal: false },
		};
		const r = await call('crm', 'POST', '/api/people', { body });
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({
			id: 'p_26',
			name: 'Ada Lovelace',
			firstName: 'Ada',
			tags: ['vip'],
			averagePrice: 350000,
		});
		expect(r.json.emails).toEqual(body.emails);
		expect(r.json).not.toHaveProperty('rating');
		expect(r.json.originalIds).toEqual({ crm: 'p_26' });
		expect(r.json.original).toEqual(body);
		expect(new Date(r.json.created).toISOString()).toBe(r.json.created);
		expect(r.json.serviceUpdated).toBe(r.json.updated);
		expect(sandbox.count('people', 'cred-default')).toBe(26);
		expect(sandbox.count('people', 'cred-other')).toBe(0);
		expect(sandbox.people().at(-1)?.name).toBe('Ada Lovelace');
		// The new person appears at the end of the list.
		const last = await listPeople('?offset=25');
		expect(last.json.people.map((p: J) => p.id)).toEqual(['p_26']);
	});

	it('rejects unknown fields and wrongly typed values, naming the field', async () => {
		const cases: [J, string][] = [
			[{ nickname: 'x' }, "'nickname'"],
			[{ emails: [{ value: 'a@b', isPrimary: 'yes' }] }, "'emails[0].isPrimary'"],
			[{ emails: 'a@b' }, "'emails'"],
			[{ tags: ['ok', 3] }, "'tags[1]'"],
			[{ averageBeds: '3' }, "'averageBeds'"],
			[{ rating: 'high' }, "'rating'"],
			[{ communicationsConsent: { email: 'yes' } }, "'communicationsConsent.email'"],
			[{ addresses: ['Main St'] }, "'addresses[0]'"],
			[{ firstName: 7 }, "'firstName'"],
		];
		for (const [body, field] of cases) {
			const r = await call('crm', 'POST', '/api/people', { body });
			expect(r.status).toBe(400);
			expect(r.json.error).toContain(field);
		}
		expect(sandbox.count('people')).toBe(25);
	});

	it('pages with nextLink: absolute links on the crm host until the last page', async () => {
		const ids: string[] = [];
		let url: string | null = `${sandbox.urls.crm}/api/people?limit=10`;
		let pages = 0;
		while (url) {
			expect(url.startsWith(sandbox.urls.crm)).toBe(true);
			const res = await fetch(url, {
				headers: {
					authorization: `Bearer ${sandbox.token}`,
					'x-service-credential-id': sandbox.defaultCredentialId,
				},
			});
			const j = (await res.json()) as J;
			expect(j._metadata).toMatchObject({
				collection: 'people',
				total: 25,
				limit: 10,
				offset: pages * 10,
			});
			if (j._metadata.nextLink) expect(j._metadata.next).toEqual(expect.any(String));
			ids.push(...j.people.map((p: J) => p.id as string));
			url = j._metadata.nextLink as string | null;
			pages++;
		}
		expect(pages).toBe(3);
		expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => `p_${i + 1}`));
	});

	it('pages with next only, and with offset only', async () => {
		sandbox.setPaging('next');
		const first = await listPeople('?limit=20');
		expect(first.json._metadata.nextLink).toBeNull();
		expect(typeof first.json._metadata.next).toBe('string');
		const second = await listPeople(
			`?next=${encodeURIComponent(first.json._metadata.next)}&limit=20`,
		);
		expect(second.json._metadata).toMatchObject({
			offset: 20,
			total: 25,
			next: null,
			nextLink: null,
		});
		expect(second.json.people.map((p: J) => p.id)).toEqual([
			'p_21',
			'p_22',
			'p_23',
			'p_24',
			'p_25',
		]);

		sandbox.setPaging('offset');
		const o = await listPeople('?limit=10&offset=10');
		expect(o.json._metadata).toEqual({
			collection: 'people',
			offset: 10,
			limit: 10,
			total: 25,
			next: null,
			nextLink: null,
		});
		expect(o.json.people[0].id).toBe('p_11');
		const past = await listPeople('?offset=40');
		expect(past.json.people).toEqual([]);
	});

	it('validates list parameters, clamps the limit and ignores unknown parameters', async () => {
		expect((await listPeople('?limit=0')).status).toBe(400);
		expect((await listPeople('?limit=abc')).json.error).toContain('limit');
		expect((await listPeople('?limit=2.5')).status).toBe(400);
		expect((await listPeople('?offset=-1')).json.error).toContain('offset');
		expect((await listPeople('?next=forged')).json.error).toContain("unknown 'next' cursor");
		// A cursor issued for one connection is not valid on another.
		const cursor = (await listPeople('?limit=5')).json._metadata.next as string;
		const other = await listPeople(`?next=${encodeURIComponent(cursor)}`, { cred: 'cred-other' });
		expect(other.status).toBe(400);
		const clamped = await listPeople('?limit=1000&sort=name');
		expect(clamped.status).toBe(200);
		expect(clamped.json._metadata.limit).toBe(100);
		expect(sandbox.requests.at(-1)?.query).toEqual({ limit: '1000', sort: 'name' });
	});

	it('seeds people deterministically, the same whatever the set size, and serves a deep page', async () => {
		// How fast 50,000 people are seeded is the benchmark's business (bench/); here only what they are.
		const big = await startSandbox({ people: 5_000, seed: 7 });
		const twin = await startSandbox({ people: 3, seed: 7 });
		try {
			expect(big.count('people')).toBe(5_000);
			const headers = {
				authorization: `Bearer ${big.token}`,
				'x-service-credential-id': big.defaultCredentialId,
			};
			const res = await fetch(`${big.urls.crm}/api/people?offset=4950&limit=100`, { headers });
			const j = (await res.json()) as J;
			expect(j._metadata).toMatchObject({
				total: 5_000,
				offset: 4_950,
				next: null,
				nextLink: null,
			});
			expect(j.people).toHaveLength(50);
			expect(j.people[49].id).toBe('p_5000');
			expect(JSON.stringify(j.people[49].original).length).toBeGreaterThan(200);
			// Same seed, same people, whatever the set size.
			const head = (await (
				await fetch(`${big.urls.crm}/api/people?limit=3`, { headers })
			).json()) as J;
			expect(head.people).toEqual(twin.people());
			expect(head.people[0]).not.toEqual(head.people[1]);
		} finally {
			await big.close();
			await twin.close();
		}
	});
});

describe('universal host', () => {
	it('returns an authorization link', async () => {
		const r = await call('universal', 'POST', '/api/oauth/authorize-url', {
			body: {
				appKey: 'crm-app',
				plan: 'pro',
				customParams: { a: 1 },
				entitiesToSync: { borrowers: true },
				returnURI: 'https://n8n.test/cb',
			},
		});
		expect(r.status).toBe(200);
		expect(r.json).toEqual({
			url: `https://auth.example.test/authorize?request=${r.json.requestId}`,
			requestId: 'req_1',
		});
		const bad = await call('universal', 'POST', '/api/oauth/authorize-url', {
			body: { entitiesToSync: { widgets: true } },
		});
		expect(bad.status).toBe(400);
		expect(bad.json.error).toContain('entitiesToSync.widgets');
	});

	it('creates a credential usable as a connection, and updates its entitiesToSync', async () => {
		const created = await call('universal', 'POST', '/api/credentials', {
			body: { appKey: 'los-app', userInputs: { apiKey: 'x' }, entitiesToSync: { loans: true } },
		});
		expect(created.status).toBe(200);
		const id = created.json.id as string;
		expect(id).toBe('cred-1');
		expect(sandbox.credentialIds).toContain(id);
		expect((await listPeople('', { cred: id })).json._metadata.total).toBe(0);

		const updated = await call('universal', 'PUT', `/api/credentials/${id}`, {
			body: { entitiesToSync: { borrowers: true, loans: false } },
		});
		expect(updated.status).toBe(200);
		expect(updated.json).toMatchObject({
			id,
			appKey: 'los-app',
			data: { entitiesToSync: { loans: false, borrowers: true } },
		});
		expect(typeof updated.json.createdAt).toBe('string');
		expect(JSON.stringify(updated.json)).not.toContain('apiKey');

		expect(
			(await call('universal', 'PUT', '/api/credentials/nope', { body: { entitiesToSync: {} } }))
				.status,
		).toBe(404);
		expect(
			(await call('universal', 'PUT', '/api/credentials/cred-other', { body: {} })).json.error,
		).toContain("'entitiesToSync'");
		expect(
			(
				await call('universal', 'PUT', '/api/credentials/cred-other', {
					body: { entitiesToSync: { loans: 'yes' } },
				})
			).status,
		).toBe(400);
		expect(
			(await call('universal', 'POST', '/api/credentials', { body: { userInputs: {} } })).json
				.error,
		).toContain("'appKey'");
		expect(
			(await call('universal', 'POST', '/api/credentials', { body: { appKey: 'a' } })).json.error,
		).toContain("'userInputs'");
		expect(
			(
				await call('universal', 'POST', '/api/credentials', {
					body: { appKey: 'a', userInputs: [] },
				})
			).status,
		).toBe(400);
	});
});

describe('los and calendar hosts', () => {
	it('updates a borrower per connection and returns the service fields', async () => {
		const r = await call('los', 'PUT', '/api/borrowers/b-1', {
			body: { name: 'Jane Doe', taxId: '123', bio: { note: 'hi' } },
		});
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({
			id: 'b-1',
			name: 'Jane Doe',
			type: 'individual',
			taxId: '123',
			bio: { note: 'hi' },
		});
		for (const f of ['created', 'updated', 'serviceUpdated'])
			expect(typeof r.json[f]).toBe('string');
		expect(r.json.originalIds).toEqual({ los: 'los-b-1' });
		expect(r.json.original).toMatchObject({ name: 'Jane Doe' });
		// The other connection's b-1 is untouched.
		const other = await call('los', 'PUT', '/api/borrowers/b-1', { cred: 'cred-other', body: {} });
		expect(other.json.name).toBe('Sample Borrower');
		const bad = await call('los', 'PUT', '/api/borrowers/b-1', { body: { ssn: '1' } });
		expect(bad.status).toBe(400);
		expect(bad.json.error).toContain("'ssn'");
		expect(
			(await call('los', 'PUT', '/api/borrowers/b-1', { body: { phones: [{ value: 1 }] } })).status,
		).toBe(400);
	});

	it('takes path ids as one percent-decoded segment', async () => {
		sandbox.addBorrower('cred-default', 'a/b', { name: 'Slash' });
		const r = await call('los', 'PUT', '/api/borrowers/a%2Fb', { body: {} });
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({ id: 'a/b', name: 'Slash' });
		expect((await call('los', 'PUT', '/api/borrowers/a/b', { body: {} })).status).toBe(404);
		const missing = await call('los', 'PUT', '/api/borrowers/b-2', { body: {} });
		expect(missing.status).toBe(404);
		expect(missing.json.error).toBe('borrower not found');
		expect((await call('los', 'PUT', '/api/borrowers/%E0%A4%A', { body: {} })).status).toBe(400);
		expect(sandbox.requests.at(-1)?.path).toBe('/api/borrowers/%E0%A4%A');
	});

	it('creates a document (201) with every field present, and validates it', async () => {
		const r = await call('los', 'POST', '/api/documents', {
			body: { ...validDocument, fileSize: 1024, isSigned: true },
		});
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			...validDocument,
			id: 'doc_1',
			fileSize: 1024,
			isSigned: true,
			requiresSignature: false,
			isActive: true,
			signedBy: [],
		});
		for (const f of [
			'receivedDate',
			'signedDate',
			'loanId',
			'borrowerId',
			'propertyId',
			'transactionId',
			'userId',
		]) {
			expect(r.json).toHaveProperty(f, null);
		}
		expect(r.json.originalIds).toEqual({ los: 'los-doc_1' });
		expect(r.json.original).toEqual({ ...validDocument, fileSize: 1024, isSigned: true });
		expect(sandbox.count('documents', 'cred-default')).toBe(1);

		const { folderId: _omit, ...noFolder } = validDocument;
		void _omit;
		expect((await call('los', 'POST', '/api/documents', { body: noFolder })).json.error).toBe(
			"field 'folderId' is required",
		);
		expect(
			(await call('los', 'POST', '/api/documents', { body: { ...validDocument, name: '' } })).json
				.error,
		).toContain("'name'");
		for (const f of ['id', 'originalIds', 'original', 'serviceUpdated']) {
			const bad = await call('los', 'POST', '/api/documents', {
				body: { ...validDocument, [f]: 'x' },
			});
			expect(bad.status).toBe(400);
			expect(bad.json.error).toContain(`'${f}' is not accepted`);
		}
		expect(
			(await call('los', 'POST', '/api/documents', { body: { ...validDocument, fileSize: '1kb' } }))
				.status,
		).toBe(400);
		expect(
			(await call('los', 'POST', '/api/documents', { body: { ...validDocument, signedBy: ['x'] } }))
				.status,
		).toBe(400);
		expect(sandbox.count('documents')).toBe(1);
	});

	it('updates a webhook', async () => {
		const r = await call('calendar', 'PUT', '/api/webhooks/w-1', {
			body: { url: 'https://n8n.test/hook', filters: { stage: 'Lead' } },
		});
		expect(r.status).toBe(200);
		expect(r.json).toEqual({
			id: 'w-1',
			status: 'active',
			event: 'peopleCreated',
			url: 'https://n8n.test/hook',
			filters: { stage: 'Lead' },
		});
		expect((await call('calendar', 'PUT', '/api/webhooks/w-9', { body: {} })).status).toBe(404);
		expect(
			(await call('calendar', 'PUT', '/api/webhooks/w-1', { body: { filters: 'x' } })).json.error,
		).toContain("'filters'");
		sandbox.addWebhook('cred-other', 'w-2', { event: 'borrowersUpdated' });
		expect(
			(await call('calendar', 'PUT', '/api/webhooks/w-2', { cred: 'cred-other', body: {} })).json
				.event,
		).toBe('borrowersUpdated');
	});
});

describe('faults', () => {
	it('answers a status fault with Retry-After for the next N matching requests only', async () => {
		sandbox.inject({
			status: 429,
			retryAfter: '2',
			count: 2,
			match: { host: 'crm', method: 'get', pathPrefix: '/api/people' },
		});
		// Not matching (other host / method): processed normally and the fault is not consumed.
		expect((await call('los', 'PUT', '/api/borrowers/b-1', { body: {} })).status).toBe(200);
		expect((await call('crm', 'POST', '/api/people', { body: {} })).status).toBe(200);
		const first = await listPeople();
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('2');
		expect(first.json).toEqual({ error: 'injected 429' });
		expect((await listPeople()).status).toBe(429);
		expect((await listPeople()).status).toBe(200);
		expect(sandbox.requests.map((r) => r.fault ?? '-')).toEqual([
			'-',
			'-',
			'status 429 retry-after 2',
			'status 429 retry-after 2',
			'-',
		]);
	});

	it('drops the connection, before or after processing', async () => {
		sandbox.inject({ drop: true });
		await expect(
			call('crm', 'POST', '/api/people', { body: { firstName: 'Lost' } }),
		).rejects.toThrow();
		expect(sandbox.count('people')).toBe(25);
		expect(sandbox.requests[0]).toMatchObject({ status: 0, fault: 'drop' });

		sandbox.inject({ drop: true, afterProcessing: true });
		await expect(
			call('crm', 'POST', '/api/people', { body: { firstName: 'Ghost' } }),
		).rejects.toThrow();
		// The record exists although the client saw a network error: why POST must not be retried.
		expect(sandbox.count('people')).toBe(26);
		expect(sandbox.people().at(-1)?.firstName).toBe('Ghost');
		expect((await listPeople()).status).toBe(200);
	});

	it('survives a delay longer than the client timeout', async () => {
		// The delay leaves a loaded machine time to deliver the client's close before the answer is due.
		sandbox.inject({ delayMs: 1500 });
		await expect(listPeople('', { signal: AbortSignal.timeout(100) })).rejects.toThrow();
		await new Promise((resolve) => setTimeout(resolve, 1600));
		expect(sandbox.requests[0]).toMatchObject({ status: 0, fault: 'delay 1500ms' });
		const t0 = Date.now();
		sandbox.inject({ delayMs: 120, status: 503 });
		const r = await listPeople();
		expect(r.status).toBe(503);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
	});

	it('answers malformed JSON and HTML error pages', async () => {
		sandbox.inject({ malformed: true });
		const m = await listPeople();
		expect(m.status).toBe(200);
		expect(m.headers.get('content-type')).toContain('application/json');
		expect(() => JSON.parse(m.text)).toThrow();
		sandbox.inject({ html: true });
		const h = await listPeople();
		expect(h.status).toBe(502);
		expect(h.headers.get('content-type')).toContain('text/html');
		expect(h.text).toContain('<html>');
		sandbox.inject({ html: true, status: 504 });
		expect((await listPeople()).status).toBe(504);
	});

	it('applies ratio faults reproducibly from the seed until cleared', async () => {
		const run = async (): Promise<number[]> => {
			sandbox.inject({ status: 503, ratio: 0.5, match: { host: 'crm' } });
			const statuses: number[] = [];
			for (let i = 0; i < 30; i++) statuses.push((await listPeople('?limit=1')).status);
			return statuses;
		};
		const a = await run();
		sandbox.reset();
		const b = await run();
		expect(b).toEqual(a);
		const faulted = a.filter((s) => s === 503).length;
		expect(faulted).toBeGreaterThan(5);
		expect(faulted).toBeLessThan(25);
		expect(a.every((s) => s === 200 || s === 503)).toBe(true);
		sandbox.clearFaults();
		expect((await listPeople()).status).toBe(200);
	});

	it('adds latency to every response', async () => {
		sandbox.setLatency(150);
		let t0 = Date.now();
		expect((await listPeople()).status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
		t0 = Date.now();
		expect((await listPeople('', { token: null })).status).toBe(401);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
		sandbox.reset(); // restores the start-up latency (0)
		// Read, not timed: how fast an answer with no latency comes depends on the machine.
		expect((await call('crm', 'GET', '/__sandbox/info')).json.latencyMs).toBe(0);
		expect((await listPeople()).status).toBe(200);
	});
});

describe('request log and control endpoints', () => {
	it('records each request as received', async () => {
		await call('los', 'PUT', '/api/borrowers/b-1?trace=1&trace=2', {
			body: { name: 'N' },
			headers: { 'X-Custom': 'v' },
		});
		expect(sandbox.requests).toHaveLength(1);
		const rec = sandbox.requests[0];
		expect(rec).toMatchObject({
			seq: 1,
			host: 'los',
			method: 'PUT',
			url: '/api/borrowers/b-1?trace=1&trace=2',
			path: '/api/borrowers/b-1',
			query: { trace: '1' },
			rawBody: '{"name":"N"}',
			body: { name: 'N' },
			status: 200,
		});
		expect(rec.headers['x-custom']).toBe('v');
		expect(rec.headers['x-service-credential-id']).toBe('cred-default');
		expect(rec.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		expect(rec.fault).toBeUndefined();
	});

	it('exposes requests, faults, counts and reset over HTTP without auth or logging', async () => {
		await listPeople();
		const base = sandbox.urls.calendar;
		const log = (await (await fetch(`${base}/__sandbox/requests`)).json()) as J[];
		expect(log.map((r) => [r.host, r.path, r.status])).toEqual([['crm', '/api/people', 200]]);

		const injected = await fetch(`${base}/__sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ status: 500, match: { host: 'los' } }),
		});
		expect(((await injected.json()) as J).queued).toBe(1);
		expect((await call('los', 'PUT', '/api/borrowers/b-1', { body: {} })).status).toBe(500);
		await fetch(`${base}/__sandbox/faults`, {
			method: 'POST',
			body: JSON.stringify({ status: 500 }),
		});
		await fetch(`${base}/__sandbox/faults`, { method: 'DELETE' });
		expect((await listPeople()).status).toBe(200);
		expect(
			(await fetch(`${base}/__sandbox/faults`, { method: 'POST', body: '{"status":42}' })).status,
		).toBe(400);

		await call('los', 'POST', '/api/documents', { body: validDocument });
		const counts = (await (await fetch(`${sandbox.urls.crm}/__sandbox/counts`)).json()) as J;
		expect(counts).toMatchObject({
			people: 25,
			credentials: 2,
			borrowers: 2,
			documents: 1,
			webhooks: 2,
		});
		expect(counts.byCredential['cred-default']).toEqual({
			people: 25,
			borrowers: 1,
			documents: 1,
			webhooks: 1,
		});
		expect(counts.byCredential['cred-other']).toEqual({
			people: 0,
			borrowers: 1,
			documents: 0,
			webhooks: 1,
		});

		expect(sandbox.requests).toHaveLength(4); // control calls are not logged
		expect((await fetch(`${base}/__sandbox/reset`, { method: 'POST' })).status).toBe(200);
		expect(sandbox.requests).toHaveLength(0);
		expect(sandbox.count('documents')).toBe(0);
		expect((await fetch(`${base}/__sandbox/nope`)).status).toBe(404);
	});
});

describe('webhook event delivery', () => {
	/** A receiver on 127.0.0.1 that records every POST and answers the given statuses in turn (then 200). */
	interface Received {
		headers: Record<string, string | string[] | undefined>;
		rawBody: string;
		at: number;
	}
	let receiver: http.Server;
	let receiverUrl: string;
	let received: Received[];
	let answers: number[];
	beforeAll(async () => {
		receiver = http.createServer((request, response) => {
			let rawBody = '';
			request.setEncoding('utf8');
			request.on('data', (chunk: string) => (rawBody += chunk));
			request.on('end', () => {
				received.push({ headers: request.headers, rawBody, at: Date.now() });
				response.writeHead(answers.shift() ?? 200);
				response.end();
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
	});
	afterAll(async () => await new Promise<void>((resolve) => receiver.close(() => resolve())));
	beforeEach(() => {
		received = [];
		answers = [];
	});

	/** The signature computed here, independently of the sandbox: hex HMAC-SHA256 over base64(raw body). */
	const expectedSignature = (rawBody: string, secret = 'sandbox-client-secret') =>
		crypto
			.createHmac('sha256', secret)
			.update(Buffer.from(rawBody).toString('base64'))
			.digest('hex');
	const register = async (event: string, url = receiverUrl, id = 'w-1', cred?: string) =>
		expect(
			(await call('calendar', 'PUT', `/api/webhooks/${id}`, { body: { url, event }, cred })).status,
		).toBe(200);
	const control = async (path: string, body?: unknown) => {
		const res = await fetch(
			`${sandbox.urls.los}/__sandbox/${path}`,
			body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
		);
		return { status: res.status, json: (await res.json()) as J };
	};
	const createPerson = async () =>
		(await call('crm', 'POST', '/api/people', { body: { firstName: 'Eve' } })).json;

	it('posts a signed peopleCreated event whose uri lists the new person', async () => {
		await register('peopleCreated');
		const person = await createPerson();
		await sandbox.deliveriesSettled();

		expect(received).toHaveLength(1);
		const [delivery] = received;
		expect(delivery.headers['content-type']).toBe('application/json');
		expect(delivery.headers['x-service-signature']).toBe(expectedSignature(delivery.rawBody));
		const body = JSON.parse(delivery.rawBody) as J;
		expect(Object.keys(body).sort()).toEqual([
			'event',
			'eventCreated',
			'eventId',
			'resourceIds',
			'uri',
		]);
		expect(body).toMatchObject({
			event: 'peopleCreated',
			resourceIds: [person.id],
			uri: `${sandbox.urls.crm}/api/people?ids=${person.id}`,
		});
		expect(Number.isNaN(Date.parse(body.eventCreated))).toBe(false);
		const attempts = [
			{
				eventId: body.eventId,
				event: 'peopleCreated',
				url: receiverUrl,
				status: 200,
				signature: 'good',
			},
		];
		expect(sandbox.deliveries).toEqual(attempts);
		expect((await control('deliveries')).json).toEqual(attempts);

		const listed = await call('crm', 'GET', body.uri.slice(sandbox.urls.crm.length));
		expect(listed.json._metadata).toMatchObject({ collection: 'people', total: 1 });
		expect(listed.json.people).toEqual([person]);
		// Deliveries are not requests to the service: the log holds the PUT, the POST and the GET only.
		expect(sandbox.requests.map((r) => r.method)).toEqual(['PUT', 'POST', 'GET']);
	});

	it('posts borrowersUpdated and documentsCreated to the webhooks of that event and connection only', async () => {
		await register('borrowersUpdated');
		sandbox.addWebhook('cred-default', 'w-docs', {
			url: `${receiverUrl}/docs`,
			event: 'documentsCreated',
		});
		sandbox.addWebhook('cred-other', 'w-other', {
			url: `${receiverUrl}/other`,
			event: 'documentsCreated',
		});
		await createPerson(); // no peopleCreated webhook is registered: nothing is sent
		await call('los', 'PUT', '/api/borrowers/b-1', { body: { name: 'Changed' } });
		const document = (await call('los', 'POST', '/api/documents', { body: validDocument })).json;
		await sandbox.deliveriesSettled();

		const bodies = received.map((delivery) => JSON.parse(delivery.rawBody) as J);
		expect(bodies.map((body) => [body.event, body.resourceIds, body.uri])).toEqual([
			['borrowersUpdated', ['b-1'], `${sandbox.urls.los}/api/borrowers?ids=b-1`],
			['documentsCreated', [document.id], `${sandbox.urls.los}/api/documents?ids=${document.id}`],
		]);
		expect(sandbox.deliveries.map((attempt) => attempt.url)).toEqual([
			receiverUrl,
			`${receiverUrl}/docs`,
		]);
		const borrowers = await call('los', 'GET', '/api/borrowers?ids=b-1');
		expect(borrowers.json._metadata).toMatchObject({ collection: 'borrowers', total: 1 });
		expect(borrowers.json.borrowers.map((b: J) => [b.id, b.name])).toEqual([['b-1', 'Changed']]);
		const documents = await call('los', 'GET', `/api/documents?ids=${document.id}`);
		expect(documents.json.documents).toEqual([document]);
		expect((await call('los', 'GET', '/api/documents?ids=doc_404')).json).toMatchObject({
			_metadata: { total: 0 },
			documents: [],
		});
		expect((await call('los', 'GET', '/api/borrowers?ids=b-1', { cred: null })).status).toBe(400);
	});

	it('filters GET people by ids on the connection', async () => {
		const r = await listPeople('?ids=p_3,p_1,p_999');
		expect(r.json._metadata).toMatchObject({
			collection: 'people',
			total: 2,
			next: null,
			nextLink: null,
		});
		expect(r.json.people.map((p: J) => p.id)).toEqual(['p_3', 'p_1']);
		expect((await listPeople('?ids=p_1', { cred: 'cred-other' })).json.people).toEqual([]);
	});

	it('sends each event twice, with a bad signature or unsigned, as POST /__sandbox/deliveries says', async () => {
		await register('peopleCreated');
		expect(await control('deliveries', { mode: 'twice' })).toEqual({
			status: 200,
			json: { ok: true, mode: 'twice' },
		});
		await createPerson();
		await sandbox.deliveriesSettled();
		expect(received).toHaveLength(2);
		expect(received[1].rawBody).toBe(received[0].rawBody);
		expect(received.map((d) => d.headers['x-service-signature'])).toEqual([
			expectedSignature(received[0].rawBody),
			expectedSignature(received[0].rawBody),
		]);

		await control('deliveries', { mode: 'badSignature' });
		await createPerson();
		await sandbox.deliveriesSettled();
		const bad = received[2];
		expect(bad.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
		expect(bad.headers['x-service-signature']).not.toBe(expectedSignature(bad.rawBody));

		await control('deliveries', { mode: 'unsigned' });
		await createPerson();
		await sandbox.deliveriesSettled();
		expect(received[3].headers).not.toHaveProperty('x-service-signature');
		expect(sandbox.deliveries.map((attempt) => attempt.signature)).toEqual([
			'good',
			'good',
			'bad',
			'none',
		]);
		expect((await control('deliveries', { mode: 'sometimes' })).status).toBe(400);
	});

	it('redelivers a recorded event once with the signature asked for', async () => {
		await register('peopleCreated');
		await createPerson();
		await sandbox.deliveriesSettled();
		const { eventId } = JSON.parse(received[0].rawBody) as J;

		expect(await control('deliveries/redeliver', { eventId })).toEqual({
			status: 200,
			json: { status: 200 },
		});
		answers = [410];
		expect(await control('deliveries/redeliver', { eventId, signature: 'bad' })).toEqual({
			status: 200,
			json: { status: 410 },
		});
		expect(received.map((d) => d.rawBody)).toEqual([
			received[0].rawBody,
			received[0].rawBody,
			received[0].rawBody,
		]);
		expect(received[1].headers['x-service-signature']).toBe(expectedSignature(received[0].rawBody));
		expect(received[2].headers['x-service-signature']).not.toBe(
			expectedSignature(received[0].rawBody),
		);
		expect(sandbox.deliveries.map((attempt) => [attempt.status, attempt.signature])).toEqual([
			[200, 'good'],
			[200, 'good'],
			[410, 'bad'],
		]);
		expect((await control('deliveries/redeliver', { eventId: 'evt_404' })).status).toBe(404);
	});

	it('retries a 5xx up to 3 times, 500 ms apart, and does not retry a 4xx', async () => {
		await register('peopleCreated');
		answers = [503, 500, 502, 503];
		await createPerson();
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries.map((attempt) => attempt.status)).toEqual([503, 500, 502, 503]);
		expect(new Set(received.map((d) => d.rawBody)).size).toBe(1);
		for (let i = 1; i < received.length; i++)
			expect(received[i].at - received[i - 1].at).toBeGreaterThanOrEqual(490);

		answers = [404];
		await createPerson();
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries.map((attempt) => attempt.status)).toEqual([503, 500, 502, 503, 404]);
	});

	it('retries a network error, and never sends to a receiver that is not on this machine', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		await register('peopleCreated', deadUrl);
		sandbox.addWebhook('cred-default', 'w-far');
		await register('peopleCreated', 'http://hooks.example.test/w', 'w-far');
		await createPerson();
		await sandbox.deliveriesSettled();
		const statusesFor = (url: string) =>
			sandbox.deliveries.filter((attempt) => attempt.url === url).map((attempt) => attempt.status);
		expect(statusesFor(deadUrl)).toEqual([0, 0, 0, 0]);
		// Recorded once as not sent: no request, no retry.
		expect(statusesFor('http://hooks.example.test/w')).toEqual([0]);
		expect(sandbox.deliveries).toHaveLength(5);
		expect(received).toEqual([]);
	});

	it('forgets deliveries and the mode on reset; a seeded webhook is no target until registered', async () => {
		await createPerson(); // seeded w-1 listens for peopleCreated but was never registered
		await control('deliveries', { mode: 'unsigned' });
		await register('peopleCreated');
		await createPerson();
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries).toHaveLength(1);
		sandbox.reset();
		expect(sandbox.deliveries).toEqual([]);
		await register('peopleCreated');
		await createPerson();
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries.map((attempt) => attempt.signature)).toEqual(['good']);
	});
});
