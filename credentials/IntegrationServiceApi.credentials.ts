import { createHmac } from 'crypto';
import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

/** Lifetime of a signed token. Short, because a fresh one is signed for every request. */
const SIGNED_TOKEN_LIFETIME_SECONDS = 15 * 60;

function base64Url(input: Buffer | string): string {
	return Buffer.from(input).toString('base64url');
}

/**
 * Signs an HS512 JWT (decisions.md: iss = client ID, sub = user or tenant ID, 15-minute expiry).
 * Node's crypto suffices; a JWT library would be a runtime dependency.
 */
function signServiceToken(
	clientId: string,
	subject: string,
	clientSecret: string,
	nowSeconds = Math.floor(Date.now() / 1000),
): string {
	const header = base64Url(JSON.stringify({ alg: 'HS512', typ: 'JWT' }));
	const claims = base64Url(
		JSON.stringify({
			iss: clientId,
			sub: subject,
			iat: nowSeconds,
			exp: nowSeconds + SIGNED_TOKEN_LIFETIME_SECONDS,
		}),
	);
	const signature = createHmac('sha512', clientSecret).update(`${header}.${claims}`).digest('base64url');
	return `${header}.${claims}.${signature}`;
}

function requireValue(credentials: ICredentialDataDecryptedObject, field: string, label: string): string {
	const value = credentials[field];
	if (typeof value !== 'string' || value.trim() === '') {
		throw new Error(`The Integration Service credential has no ${label}; fill it in the credential.`);
	}
	if (value.includes('\r') || value.includes('\n') || value.includes('\0')) {
		throw new Error(`The Integration Service credential's ${label} contains a line break; paste it again.`);
	}
	return value.trim();
}

/**
 * The token is only ever sent to http(s) URLs without user:password@ (a typo such as "ftp://" or
 * "crm.example.com" fails here, and a password in a URL is never sent or shown).
 */
function assertHttpTarget(requestOptions: IHttpRequestOptions): void {
	const target = `${requestOptions.baseURL ?? ''}${requestOptions.url ?? ''}`;
	if (!/^https?:\/\//i.test(target)) {
		throw new Error(
			'The Integration Service host URLs must start with http:// or https:// (check the four host fields of the credential).',
		);
	}
	if (/^https?:\/\/[^/?#]*@/i.test(target)) {
		throw new Error('The Integration Service host URLs must not contain a user name or password (user:password@).');
	}
}

/** n8n's request helper strips CR/LF from header values and would send another ID: refuse it instead. */
function assertHeaderSafe(requestOptions: IHttpRequestOptions): void {
	for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
		const text = String(value);
		for (let index = 0; index < text.length; index++) {
			const code = text.charCodeAt(index);
			if (code < 0x20 || code === 0x7f) {
				throw new Error(`The Integration Service credential's ${name === 'X-Service-Credential-Id' ? 'Default Credential ID' : name} contains a line break or another control character.`);
			}
		}
	}
}

export class IntegrationServiceApi implements ICredentialType {
	name = 'integrationServiceApi';

	displayName = 'Integration Service API';

	icon: Icon = {
		light: 'file:../icons/integrationService.svg',
		dark: 'file:../icons/integrationService.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-integration-service';

	properties: INodeProperties[] = [
		{
			displayName: 'CRM Host URL',
			name: 'crmUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://crm.example.com',
			description: 'Base URL of the people (CRM) endpoints, without /api',
		},
		{
			displayName: 'Universal Host URL',
			name: 'universalUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://universal.example.com',
			description: 'Base URL of the credential and authorization-link endpoints, without /api',
		},
		{
			displayName: 'LOS Host URL',
			name: 'losUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://los.example.com',
			description: 'Base URL of the borrower and document (loan origination) endpoints, without /api',
		},
		{
			displayName: 'Calendar Host URL',
			name: 'calendarUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://calendar.example.com',
			description: 'Base URL of the webhook (calendar) endpoints, without /api',
		},
		{
			displayName: 'Default Credential ID',
			name: 'credentialId',
			type: 'string',
			default: '',
			required: true,
			description:
				'Sent as X-Service-Credential-Id to the CRM, LOS and calendar hosts to say which connected system a call reads or writes. Each node can override it per item.',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Access Token',
					value: 'accessToken',
					description: 'Paste a bearer token (JWT) issued to you',
				},
				{
					name: 'Client ID and Secret',
					value: 'clientCredentials',
					description:
						'Sign a fresh short-lived token for every request, so scheduled workflows never run with an expired token',
				},
			],
			default: 'accessToken',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['accessToken'] } },
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Becomes the token issuer (iss)',
			displayOptions: { show: { authentication: ['clientCredentials'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Signs each token with HMAC-SHA512 (HS512); it is never sent',
			displayOptions: { show: { authentication: ['clientCredentials'] } },
		},
		{
			displayName: 'User or Tenant ID',
			name: 'userId',
			type: 'string',
			default: '',
			required: true,
			description: 'Becomes the token subject (sub)',
			displayOptions: { show: { authentication: ['clientCredentials'] } },
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		assertHttpTarget(requestOptions);
		assertHeaderSafe(requestOptions);
		const token =
			credentials.authentication === 'clientCredentials'
				? signServiceToken(
						requireValue(credentials, 'clientId', 'Client ID'),
						requireValue(credentials, 'userId', 'User or Tenant ID'),
						requireValue(credentials, 'clientSecret', 'Client Secret'),
					)
				: requireValue(credentials, 'accessToken', 'Access Token');
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` },
		};
	}

	/**
	 * Lists one person on the CRM host: proves the host, the token and the credential ID together. A
	 * redirect is not followed (the token stays on the host named here), and an answer that is not the
	 * people list (a login page, another service) fails the test instead of passing it.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.crmUrl.replace(/\\/+$/, "")}}',
			url: '/api/people',
			method: 'GET',
			qs: { limit: 1 },
			headers: { 'X-Service-Credential-Id': '={{$credentials.credentialId}}' },
			disableFollowRedirect: true,
		},
		// n8n's tester applies both kinds of rule from one list (status codes on failure, the body on success);
		// its type allows only one kind per list, hence the assertion.
		rules: [
			...[301, 302, 303, 307, 308].map((value) => ({
				type: 'responseCode' as const,
				properties: {
					value,
					message: `The CRM host answered with a redirect (HTTP ${value}); redirects are not followed with your token. Enter the final address as CRM Host URL.`,
				},
			})),
			{ type: 'responseCode', properties: { value: 401, message: 'The CRM host refused the token (HTTP 401): it is invalid or expired' } },
			{ type: 'responseCode', properties: { value: 403, message: 'The token is not allowed to read people for this Default Credential ID (HTTP 403)' } },
			{ type: 'responseCode', properties: { value: 404, message: 'The CRM host has no people list at /api/people (HTTP 404): check the CRM Host URL' } },
			{ type: 'responseCode', properties: { value: 409, message: "The connected system's data is not ready yet (HTTP 409): try again in a minute" } },
			{
				type: 'responseSuccessBody',
				properties: { key: 'people', value: undefined, message: 'The CRM Host URL answered, but not with the people list: it does not look like the Integration Service (a login page or another service?)' },
			},
		] as IAuthenticateRuleResponseCode[],
	};
}
