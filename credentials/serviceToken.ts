import { createHmac } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import {
	hasControlCharacter,
	headerValueProblem,
	HOST_FIELDS,
	hostUrlProblem,
} from '../nodes/shared/service';

/** `sent`: the value goes in the Authorization header as written, so it must be sendable there. */
function requireValue(raw: unknown, label: string, sent = false): string {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '')
		throw new Error(
			`The Integration Service credential has no ${label}; fill it in the credential.`,
		);
	const problem = hasControlCharacter(value)
		? 'contains a line break'
		: sent && headerValueProblem(value);
	if (problem)
		throw new Error(`The Integration Service credential's ${label} ${problem}; paste it again.`);
	return value;
}

const signatureOf = (unsigned: string, secret: string): string =>
	createHmac('sha512', secret).update(unsigned).digest('base64url');

/** An HS512 JWT (iss = client ID, sub = user or tenant ID), for 15 minutes: our node signs one per request; a library would be a dependency. */
function signServiceToken(clientId: string, subject: string, clientSecret: string): string {
	const iat = Math.floor(Date.now() / 1000);
	const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
	const claims = { iss: clientId, sub: subject, iat, exp: iat + 15 * 60 };
	const unsigned = `${encode({ alg: 'HS512', typ: 'JWT' })}.${encode(claims)}`;
	return `${unsigned}.${signatureOf(unsigned, clientSecret)}`;
}

/** The bearer token to send now: a freshly signed JWT in Client ID and Secret mode, else the pasted token. */
export function serviceToken(credentials: ICredentialDataDecryptedObject): string {
	return credentials.authentication === 'clientCredentials'
		? signServiceToken(
				requireValue(credentials.clientId, 'Client ID'),
				requireValue(credentials.userId, 'User or Tenant ID'),
				requireValue(credentials.clientSecret, 'Client Secret'),
			)
		: requireValue(credentials.accessToken, 'Access Token', true);
}

/** Four usable host URLs (never echoed), and a Default Credential ID n8n would send as written. */
export function assertUsableCredential(credentials: ICredentialDataDecryptedObject): void {
	for (const { field, label } of Object.values(HOST_FIELDS)) {
		const problem = hostUrlProblem(credentials[field]);
		if (problem !== undefined)
			throw new Error(`The Integration Service credential's ${label} ${problem}.`);
	}
	if (hasControlCharacter(String(credentials.credentialId ?? '')))
		throw new Error(
			"The Integration Service credential's Default Credential ID contains a line break or another control character.",
		);
}

/** The identity a signed token is for, written in front of it in the hidden Session Token. */
const identityOf = (credentials: ICredentialDataDecryptedObject): string =>
	JSON.stringify(
		[credentials.clientId, credentials.userId].map((part) => String(part ?? '').trim()),
	);

/** The identity the token was signed for, then the token (`authenticate` checks it); in Access Token mode, where that token is sent itself, a marker. */
export function sessionTokenOf(credentials: ICredentialDataDecryptedObject, token: string): string {
	return credentials.authentication === 'clientCredentials'
		? `${identityOf(credentials)}${token}`
		: '-';
}

/** Made for the current client ID, user and secret, and not expired (an Access Token: set at all). */
export function storedSessionUsable(credentials: ICredentialDataDecryptedObject): boolean {
	const stored = typeof credentials.sessionToken === 'string' ? credentials.sessionToken : '';
	if (credentials.authentication !== 'clientCredentials') return stored !== '';
	const identity = identityOf(credentials);
	if (!stored.startsWith(identity)) return false;
	const [header, claims, signature] = stored.slice(identity.length).split('.');
	const secret = String(credentials.clientSecret ?? '').trim();
	if (signature !== signatureOf(`${header}.${claims}`, secret)) return false;
	// Signed with this secret, so the claims are signServiceToken's own JSON.
	const { exp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { exp: number };
	return exp > Date.now() / 1000;
}
