/**
 * Header values go out exactly as written or not at all: a credential whose token or Default
 * Credential ID the HTTP client would alter (it writes header values as Latin-1 and strips CR/LF) is
 * refused before anything is sent, and a value that can be sent arrives byte for byte.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { VALID } from '../reliability/helpers';
import { startRawServer, type RawServer } from './raw-server';
import { credentialsFor } from './server';

const FAST = {
	maxAttempts: 2,
	initialRetryDelay: 10,
	maxTotalWait: 10,
	// Out of reach: a 2 s Timeout cut healthy answers short on a loaded machine; a test of the Timeout sets its own.
	timeout: 600,
	maxRequestsPerSecond: 0,
};
const OK =
	'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"people":[]}';

let service: RawServer;
beforeAll(async () => {
	service = await startRawServer();
	service.script((_request, socket) => socket.end(OK));
});
afterAll(async () => await service.close());
beforeEach(() => {
	service.requests.length = 0;
});

function credentials(overrides: Record<string, string>): ICredentialDataDecryptedObject {
	return credentialsFor(service.origin, overrides);
}

const NOT_SENDABLE =
	'contains characters that cannot be sent in an HTTP header as written (only ASCII letters, digits, punctuation and spaces)';

test.each(['conn-東京', 'conn-🔑', 'conn-İd', 'conn-é'])(
	'a Default Credential ID %s is refused and nothing is sent',
	async (credentialId) => {
		const result = await runNode({
			parameters: { ...VALID['person.getAll'], requestOptions: FAST },
			credentials: credentials({ credentialId }),
		});
		expect(result.error?.message).toBe(
			`The credential's Default Credential ID: ${NOT_SENDABLE} (item 0)`,
		);
		expect(service.requests).toHaveLength(0);
	},
);

test.each(['tökén-123456', 'token-🔑-123456'])(
	'an Access Token %s is refused and nothing is sent',
	async (accessToken) => {
		const result = await runNode({
			parameters: { ...VALID['person.create'], requestOptions: FAST },
			credentials: credentials({ accessToken }),
		});
		expect(result.error?.message).toBe(
			`The Integration Service credential's Access Token ${NOT_SENDABLE}; paste it again. (item 0)`,
		);
		expect(JSON.stringify(result.error)).not.toContain(accessToken);
		expect(service.requests).toHaveLength(0);
	},
);

test('visible ASCII and spaces go out byte for byte', async () => {
	const credentialId = 'conn id ~!#$%&*+-.^_`|';
	const result = await runNode({
		parameters: { ...VALID['person.getAll'], requestOptions: FAST },
		credentials: credentials({ credentialId }),
	});
	expect(result.error).toBeUndefined();
	expect(service.requests.map((request) => request.headers['x-service-credential-id'])).toEqual([
		credentialId,
	]);
	expect(service.requests[0].headers.authorization).toBe('Bearer token-123456');
});
