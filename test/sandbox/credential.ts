/**
 * The credential data (`integrationServiceApi`) a user would fill in for a sandbox, shared by the
 * tests, the benchmark, the demo and the real-n8n end-to-end run (which loads the compiled
 * build/test/sandbox/credential.js).
 */
import { SANDBOX_DEFAULTS, type HostName } from './types';

export type SandboxCredentialMode = 'accessToken' | 'clientCredentials';

/** What the credential needs of a sandbox: a started one, or what `cli.js --json` prints. */
export interface SandboxAddress {
	urls: Record<HostName, string>;
	token?: string;
	defaultCredentialId?: string;
	jwtIssuer?: string;
	jwtSecret?: string;
	signingSecret?: string;
}

/** The JWT subject (user or tenant id) in client-credentials mode. */
export const SANDBOX_USER_ID = 'tenant-42';

/**
 * Every field of the credential form, with the sandbox's token, or its client id and secret. In token
 * mode the Webhook Signing Secret is the sandbox's (its client secret); in client mode the client
 * secret itself is the signing key, so the field stays empty.
 */
export function sandboxCredential(
	sandbox: SandboxAddress,
	mode: SandboxCredentialMode = 'accessToken',
): Record<string, string> {
	const client = mode === 'clientCredentials';
	return {
		crmUrl: sandbox.urls.crm,
		universalUrl: sandbox.urls.universal,
		losUrl: sandbox.urls.los,
		calendarUrl: sandbox.urls.calendar,
		credentialId: sandbox.defaultCredentialId ?? SANDBOX_DEFAULTS.credentialIds[0],
		authentication: mode,
		accessToken: client ? '' : (sandbox.token ?? SANDBOX_DEFAULTS.token),
		clientId: client ? (sandbox.jwtIssuer ?? SANDBOX_DEFAULTS.clientId) : '',
		clientSecret: client ? (sandbox.jwtSecret ?? SANDBOX_DEFAULTS.clientSecret) : '',
		userId: client ? SANDBOX_USER_ID : '',
		signingSecret: client ? '' : (sandbox.signingSecret ?? SANDBOX_DEFAULTS.clientSecret),
	};
}
