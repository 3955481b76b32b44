import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/server';

/** Credential data as a user would fill the form for the sandbox, in access-token mode unless overridden. */
export function sandboxCredentials(
	sandbox: Sandbox,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		crmUrl: sandbox.urls.crm,
		universalUrl: sandbox.urls.universal,
		losUrl: sandbox.urls.los,
		calendarUrl: sandbox.urls.calendar,
		credentialId: sandbox.defaultCredentialId,
		authentication: 'accessToken',
		accessToken: sandbox.token,
		...overrides,
	};
}

/** Credential data in client-ID-and-secret mode, which signs a JWT per request. */
export function signedJwtCredentials(
	sandbox: Sandbox,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return sandboxCredentials(sandbox, {
		authentication: 'clientCredentials',
		accessToken: '',
		clientId: sandbox.jwtIssuer,
		clientSecret: sandbox.jwtSecret,
		userId: 'tenant-42',
		...overrides,
	});
}

