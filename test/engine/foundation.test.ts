/**
 * The foundation through n8n's real engine: the credential's two token modes, the credential test,
 * the header rules of decisions.md, host checks, and secrets never appearing in output or errors.
 */
import { createHmac } from 'crypto';

import { runNode, testCredential } from '../harness/engine';
import {
	expectInputError,
	expectRequest,
	sandboxCredentials,
	signedJwtCredentials,
	useSandbox,
} from '../harness/fixtures';
import { signJwtForTest, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));

const createAda = {
	resource: 'person',
	operation: 'create',
	firstName: 'Ada',
	lastName: 'Lovelace',
};

function decodeSegment(segment: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('access token mode', () => {
	test('sends the pasted token as a bearer token and the default credential id on the CRM host', async () => {
		const result = await runNode({
			parameters: createAda,
			credentials: sandboxCredentials(sandbox),
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			host: 'crm',
			method: 'POST',
			url: '/api/people',
			credentialId: 'cred-default',
			body: { firstName: 'Ada', lastName: 'Lovelace' },
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			firstName: 'Ada',
			lastName: 'Lovelace',
			name: 'Ada Lovelace',
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('an expired token gets 401 from the service and a clear error without the token', async () => {
		const expired = signJwtForTest(
			{ iss: sandbox.jwtIssuer, sub: 'u', iat: 1_600_000_000, exp: 1_600_000_900 },
			sandbox.jwtSecret,
		);
		const result = await runNode({
			parameters: createAda,
			credentials: sandboxCredentials(sandbox, { accessToken: expired }),
		});

		expect(sandbox.requests.map((r) => r.status)).toEqual([401]);
		expect(result.error?.message).toMatch(/invalid or expired.*HTTP 401.*token expired/);
		expect(result.error?.message).toContain('(item 0)');
		expect(JSON.stringify(result.run.data)).not.toContain(expired);
	});

	test('a 401 is not retried: the request is sent once', async () => {
		await runNode({
			parameters: createAda,
			credentials: sandboxCredentials(sandbox, { accessToken: 'wrong-token' }),
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.count('people')).toBe(0);
	});
});

describe('client ID and secret mode', () => {
	test('signs a fresh HS512 JWT that verifies with the secret and carries iss, sub, iat and exp', async () => {
		const before = Math.floor(Date.now() / 1000);
		const result = await runNode({
			parameters: createAda,
			credentials: signedJwtCredentials(sandbox),
		});
		const after = Math.floor(Date.now() / 1000);

		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].status).toBe(200);
		const token = sandbox.requests[0].headers.authorization.replace(/^Bearer /, '');
		const [header, claims, signature] = token.split('.');
		expect(decodeSegment(header)).toEqual({ alg: 'HS512', typ: 'JWT' });
		const expectedSignature = createHmac('sha512', sandbox.jwtSecret)
			.update(`${header}.${claims}`)
			.digest('base64url');
		expect(signature).toBe(expectedSignature);
		const payload = decodeSegment(claims);
		expect(payload.iss).toBe(sandbox.jwtIssuer);
		expect(payload.sub).toBe('tenant-42');
		expect(payload.iat).toBeGreaterThanOrEqual(before);
		expect(payload.iat).toBeLessThanOrEqual(after);
		expect(payload.exp).toBe((payload.iat as number) + 15 * 60);
	});

	test('a wrong secret gets 401 (invalid signature) and the error never shows the secret', async () => {
		const secret = 'not-the-right-secret-123';
		const result = await runNode({
			parameters: createAda,
			credentials: signedJwtCredentials(sandbox, { clientSecret: secret }),
		});

		expect(sandbox.requests.map((r) => r.status)).toEqual([401]);
		expect(result.error?.message).toMatch(/HTTP 401.*invalid signature/);
		expect(JSON.stringify(result.run.data)).not.toContain(secret);
		expect(JSON.stringify(result.error)).not.toContain(secret);
	});

	test('a missing client secret is a clear error and nothing is sent', async () => {
		const result = await runNode({
			parameters: createAda,
			credentials: signedJwtCredentials(sandbox, { clientSecret: '' }),
		});
		expectInputError(sandbox, result, expect.stringContaining('Client Secret'));
	});
});

describe('credential test (as n8n runs it from the credential form)', () => {
	test('passes with good values in both modes, listing one person on the CRM host', async () => {
		await expect(testCredential(sandboxCredentials(sandbox))).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		await expect(testCredential(signedJwtCredentials(sandbox))).resolves.toMatchObject({
			status: 'OK',
		});
		expect(sandbox.requests).toHaveLength(2);
		for (const request of sandbox.requests) {
			expect(request.method).toBe('GET');
			expect(request.host).toBe('crm');
			expect(request.url).toBe('/api/people?limit=1');
			expect(request.headers['x-service-credential-id']).toBe('cred-default');
		}
	});

	test('fails with a bad token, a bad secret, an unknown credential id, or a host that is not http(s)', async () => {
		const bad = [
			sandboxCredentials(sandbox, { accessToken: 'nope' }),
			signedJwtCredentials(sandbox, { clientSecret: 'wrong-secret' }),
			sandboxCredentials(sandbox, { credentialId: 'cred-unknown' }),
			sandboxCredentials(sandbox, { crmUrl: sandbox.urls.crm.replace('http://', 'ftp://') }),
		];
		const sentPerCredential: number[] = [];
		for (const credentials of bad) {
			const before = sandbox.requests.length;
			const result = await testCredential(credentials);
			expect(result.status).toBe('Error');
			expect(result.message).not.toContain('wrong-secret');
			sentPerCredential.push(sandbox.requests.length - before);
		}
		// n8n resends once after a 401 (its re-authentication path); the ftp:// host is never contacted.
		expect(sentPerCredential).toEqual([2, 2, 1, 0]);
		expect(sandbox.requests.map((r) => r.status)).toEqual([401, 401, 401, 401, 403]);
	});
});

describe('credential-id header', () => {
	test('a per-item override from an expression reaches the wire for each item', async () => {
		const result = await runNode({
			parameters: { ...createAda, credentialId: '={{ $json.connection }}' },
			credentials: sandboxCredentials(sandbox),
			items: [{ connection: 'cred-other' }, { connection: '' }, { connection: 'cred-other' }],
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((r) => r.headers['x-service-credential-id'])).toEqual([
			'cred-other',
			'cred-default',
			'cred-other',
		]);
		expect(sandbox.count('people', 'cred-other')).toBe(2);
		expect(sandbox.count('people', 'cred-default')).toBe(1);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	test('a line break in the override is refused before anything is sent', async () => {
		const result = await runNode({
			parameters: { ...createAda, credentialId: 'cred-default\r\nX-Injected: 1' },
			credentials: sandboxCredentials(sandbox),
		});
		expectInputError(
			sandbox,
			result,
			'Connection ID: contains a line break or another control character (item 0)',
		);
	});
});

describe('hosts', () => {
	test('trailing slashes on a host are ignored', async () => {
		const result = await runNode({
			parameters: createAda,
			credentials: sandboxCredentials(sandbox, { crmUrl: `${sandbox.urls.crm}//` }),
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].url).toBe('/api/people');
	});

	test('a host that is not an http(s) URL is a clear error and nothing is sent', async () => {
		for (const crmUrl of ['crm.example.com', 'ftp://127.0.0.1:1', 'javascript:alert(1)']) {
			const result = await runNode({
				parameters: createAda,
				credentials: sandboxCredentials(sandbox, { crmUrl }),
			});
			expect(result.error?.message).toMatch(/CRM Host URL must be an http:\/\/ or https:\/\/ URL/);
		}
		expect(sandbox.requests).toHaveLength(0);
	});
});
