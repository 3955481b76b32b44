import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { runNode, type RunOptions, type RunResult } from './engine';
import { sandboxCredential } from '../sandbox/credential';
import type { HostName, RecordedRequest, Sandbox } from '../sandbox/server';

export { useSandbox } from './use-sandbox';

/** Credential data as a user would fill the form for the sandbox, in access-token mode, with overrides. */
export function sandboxCredentials(
	sandbox: Sandbox,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return { ...sandboxCredential(sandbox), ...overrides };
}

/**
 * Runs one operation of the node on the sandbox with `sandboxCredentials`: the returned function takes
 * runNode's options without credentials, and its `parameters` without resource and operation.
 * `sandbox` is a getter read on each run, so the runner can be made before beforeAll starts the sandbox.
 */
export function operationRunner(
	sandbox: () => Sandbox,
	resource: string,
	operation: string,
): (options: Omit<RunOptions, 'credentials'>) => Promise<RunResult> {
	return async (options) =>
		await runNode({
			...options,
			credentials: sandboxCredentials(sandbox()),
			parameters: { resource, operation, ...options.parameters },
		});
}

/** Credential data in client-ID-and-secret mode, which signs a JWT per request, with overrides. */
export function signedJwtCredentials(
	sandbox: Sandbox,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return { ...sandboxCredential(sandbox, 'clientCredentials'), ...overrides };
}

export interface ExpectedRequest {
	host: HostName;
	method: string;
	/** The raw request target; its part before any `?` must be the raw path. */
	url: string;
	/**
	 * The X-Service-Credential-Id header: the value it must carry (CRM, LOS and calendar hosts), or null
	 * where it must be absent (the universal host, decisions.md).
	 */
	credentialId: string | null;
	/** The parsed JSON body, compared with toEqual. */
	body: unknown;
	/** The parsed query; none (`{}`) unless given. */
	query?: Record<string, string>;
	/** The status the sandbox answered; 200 unless given. */
	status?: number;
}

/** One recorded request, in full: where it went, the access token, JSON, the credential-id header, body and answer. */
export function expectRequest(
	sandbox: Sandbox,
	request: RecordedRequest,
	expected: ExpectedRequest,
): void {
	expect(request.host).toBe(expected.host);
	expect(request.method).toBe(expected.method);
	expect(request.url).toBe(expected.url);
	expect(request.path).toBe(expected.url.split('?')[0]);
	expect(request.query).toEqual(expected.query ?? {});
	expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
	expect(request.headers['content-type']).toBe('application/json');
	if (expected.credentialId === null)
		expect(request.headers).not.toHaveProperty('x-service-credential-id');
	else expect(request.headers['x-service-credential-id']).toBe(expected.credentialId);
	expect(request.body).toEqual(expected.body);
	expect(request.status).toBe(expected.status ?? 200);
}

/** A run that succeeded having sent exactly the `expected` requests, in that order, each checked in full (expectRequest). */
export function expectSent(sandbox: Sandbox, result: RunResult, expected: ExpectedRequest[]): void {
	expect(result.error).toBeUndefined();
	expect(sandbox.requests).toHaveLength(expected.length);
	expected.forEach((request, index) => expectRequest(sandbox, sandbox.requests[index], request));
}

/**
 * A run stopped by an input error: the error message is `message` (a string must match exactly; pass
 * `expect.stringContaining(…)` for a part), no item came out and nothing reached the sandbox.
 */
export function expectInputError(
	sandbox: Sandbox,
	result: RunResult,
	message: string | jest.AsymmetricMatcher,
): void {
	expect(result.error?.message).toEqual(message);
	expect(result.items).toEqual([]);
	expect(sandbox.requests).toHaveLength(0);
}
