import { createHmac } from 'crypto';
import type {
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

/** The token is only ever sent to http(s) URLs: a typo such as "ftp://" or "crm.example.com" fails here. */
function assertHttpTarget(requestOptions: IHttpRequestOptions): void {
	const target = `${requestOptions.baseURL ?? ''}${requestOptions.url ?? ''}`;
	if (!/^https?:\/\//i.test(target)) {
		throw new Error(
			'The Integration Service host URLs must start with http:// or https:// (check the four host fields of the credential).',
		);
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

	// Lists one person on the CRM host: proves the host, the token and the credential ID together.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.crmUrl.replace(/\\/+$/, "")}}',
			url: '/api/people',
			method: 'GET',
			qs: { limit: 1 },
			headers: { 'X-Service-Credential-Id': '={{$credentials.credentialId}}' },
		},
	};
}
