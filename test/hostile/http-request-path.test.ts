/**
 * Our credential in n8n's HTTP Request node ("Predefined Credential Type"), through n8n-core's real
 * legacy requestWithAuthentication and a credentials helper that behaves as n8n 2.41's: after any
 * failed request n8n-core asks the credential's preAuthentication again and re-sends when it hands
 * back a new token. Attacked here: a create answered 500 or 502, or cut off after it was read, must
 * reach the service once; after the credential is edited to another identity, no request may carry
 * the previous identity's token.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { serviceToken, sessionTokenOf } from '../../credentials/serviceToken';
import { PREDEFINED_REQUEST_TYPE, runNode } from '../harness/engine';
import { credentialsFor, sendJson, useHostile } from './server';

const service = useHostile();

type Mode = 'accessToken' | 'clientCredentials';

function credentials(
	mode: Mode,
	overrides: Record<string, string> = {},
): ICredentialDataDecryptedObject {
	const auth: Record<string, string> =
		mode === 'accessToken'
			? { authentication: 'accessToken', accessToken: 'pasted-token-1' }
			: {
					authentication: 'clientCredentials',
					clientId: 'client-1',
					clientSecret: 'client-secret-1',
					userId: 'tenant-1',
				};
	return credentialsFor(service.origin, { sessionToken: '', ...auth, ...overrides });
}

/** The bearer token a request carried, and for a signed one the tenant it names. */
function bearerOf(headers: IDataObject): { token: string; sub?: string } {
	const token = String(headers.authorization ?? '').replace(/^Bearer ?/, '');
	try {
		const claims = JSON.parse(
			Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
		) as { sub?: string };
		return { token, sub: claims.sub };
	} catch {
		return { token };
	}
}

async function post(data: ICredentialDataDecryptedObject) {
	return await runNode({
		nodeType: PREDEFINED_REQUEST_TYPE,
		parameters: {
			method: 'POST',
			url: `${service.origin}/api/people`,
			body: '{"firstName":"Ada"}',
		},
		credentials: data,
	});
}

describe('a create through the HTTP Request node path reaches the service once', () => {
	const failures: Record<string, (res: import('http').ServerResponse) => void> = {
		'answered 500': (res) => sendJson(res, 500, { error: 'internal' }),
		'answered 502': (res) => sendJson(res, 502, { error: 'bad gateway' }),
		'cut off after the request was read': (res) => res.socket?.destroy(),
	};
	for (const mode of ['accessToken', 'clientCredentials'] as const) {
		for (const stored of ['empty (first use)', 'still valid'] as const) {
			for (const [what, answer] of Object.entries(failures)) {
				test(`${mode}, stored token ${stored}: a POST ${what} is sent once and fails`, async () => {
					service.script((_request, res) => answer(res));
					const data = credentials(mode);
					if (stored === 'still valid')
						data.sessionToken = sessionTokenOf(data, serviceToken(data));
					const result = await post(data);
					expect(result.error).toBeDefined();
					expect(service.received.filter((request) => request.method === 'POST')).toHaveLength(1);
				});
			}
		}
	}
});

describe('an edited credential never sends the previous identity', () => {
	/** Accepts only a token signed for `tenant`; anything else is a 401, as the service would answer. */
	function acceptOnly(tenant: string): void {
		service.script((request, res) => {
			const { sub } = bearerOf(request.headers as IDataObject);
			if (sub === tenant) sendJson(res, 201, { id: 'p-1' });
			else sendJson(res, 401, { error: 'invalid token' });
		});
	}

	test('User or Tenant ID changed: no request carries the old tenant; the new token is signed after a 401 and the create lands once', async () => {
		const before = credentials('clientCredentials');
		const stale = sessionTokenOf(before, serviceToken(before));
		const edited = credentials('clientCredentials', { userId: 'tenant-2', sessionToken: stale });
		acceptOnly('tenant-2');
		const result = await post(edited);
		expect(result.error).toBeUndefined();
		const sent = service.received.map((request) => bearerOf(request.headers as IDataObject));
		expect(sent.filter((bearer) => bearer.sub === 'tenant-1')).toHaveLength(0);
		expect(sent.map((bearer) => bearer.sub)).toEqual([undefined, 'tenant-2']);
		// The new token is stored for the next run, for the new identity.
		expect(String(edited.sessionToken).startsWith('["client-1","tenant-2"]')).toBe(true);
	});

	test('Client Secret changed: the old signature is refused (401), a token signed with the new secret is sent once', async () => {
		const before = credentials('clientCredentials');
		const edited = credentials('clientCredentials', {
			clientSecret: 'client-secret-2',
			sessionToken: sessionTokenOf(before, serviceToken(before)),
		});
		service.script((request, res) => {
			const { token } = bearerOf(request.headers as IDataObject);
			if (token === serviceToken(edited)) sendJson(res, 201, { id: 'p-1' });
			else sendJson(res, 401, { error: 'invalid signature' });
		});
		const result = await post(edited);
		expect(result.error).toBeUndefined();
		expect(service.received).toHaveLength(2);
		expect(bearerOf(service.received[1].headers as IDataObject).token).toBe(serviceToken(edited));
	});

	test('Access Token changed: the new token is sent from the first request on', async () => {
		const edited = credentials('accessToken', { accessToken: 'pasted-token-2', sessionToken: '-' });
		service.script((request, res) =>
			sendJson(res, request.headers.authorization === 'Bearer pasted-token-2' ? 201 : 401, {
				id: 'p-1',
			}),
		);
		const result = await post(edited);
		expect(result.error).toBeUndefined();
		expect(service.received.map((request) => request.headers.authorization)).toEqual([
			'Bearer pasted-token-2',
		]);
	});

	test('an expired stored token: 401, then one new token, and the create lands once', async () => {
		const data = credentials('clientCredentials');
		const [header, ,] = serviceToken(data).split('.');
		const expiredClaims = Buffer.from(
			JSON.stringify({ iss: 'client-1', sub: 'tenant-1', iat: 1, exp: 2 }),
		).toString('base64url');
		const { createHmac } = await import('crypto');
		const signature = createHmac('sha512', 'client-secret-1')
			.update(`${header}.${expiredClaims}`)
			.digest('base64url');
		data.sessionToken = sessionTokenOf(data, `${header}.${expiredClaims}.${signature}`);
		service.script((request, res) => {
			const { token } = bearerOf(request.headers as IDataObject);
			const exp = (
				JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as {
					exp: number;
				}
			).exp;
			sendJson(res, exp > Date.now() / 1000 ? 201 : 401, { id: 'p-1' });
		});
		const result = await post(data);
		expect(result.error).toBeUndefined();
		expect(service.received).toHaveLength(2);
	});
});
