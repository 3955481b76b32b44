import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	assertUsableCredential,
	serviceToken,
	sessionTokenOf,
	storedSessionUsable,
} from './serviceToken';
import { HOST_FIELDS } from '../nodes/shared/service';

/** The credential test's answers that fail it, and what each says. */
const REFUSALS: Array<[number, string]> = [
	...[301, 302, 303, 307, 308].map((value): [number, string] => [
		value,
		`The CRM host answered with a redirect (HTTP ${value}); redirects are not followed with your token. Enter the final address as CRM Host URL.`,
	]),
	[401, 'The CRM host refused the token (HTTP 401): it is invalid or expired'],
	[403, 'The token is not allowed to read people for this Default Credential ID (HTTP 403)'],
	[404, 'The CRM host has no people list at /api/people (HTTP 404): check the CRM Host URL'],
	[409, "The connected system's data is not ready yet (HTTP 409): try again in a minute"],
];

export class IntegrationServiceApi implements ICredentialType {
	name = 'integrationServiceApi';

	displayName = 'Integration Service API';

	icon: Icon = {
		light: 'file:../icons/integrationService.svg',
		dark: 'file:../icons/integrationService.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-integration-service';

	properties: INodeProperties[] = [
		...Object.entries(HOST_FIELDS).map(([host, { field, label, serves }]) => ({
			displayName: label,
			name: field,
			type: 'string' as const,
			default: '',
			required: true,
			placeholder: `https://${host}.example.com`,
			description: `Base URL of the ${serves} endpoints, without /api`,
		})),
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
		{
			displayName: 'Webhook Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Verifies the X-Service-Signature of the service's webhook deliveries (Integration Service Trigger). In Client ID and Secret mode the client secret is used instead.",
			hint: 'Needed only by the Integration Service Trigger while its Verify Signature is on (the default): without it every delivery is refused. Leave it empty for the Integration Service node and the Changes Trigger.',
			displayOptions: { show: { authentication: ['accessToken'] } },
		},
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/** The HTTP Request node's token: renewed only when the stored one cannot be sent, as n8n re-sends a request after a renewal. */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		assertUsableCredential(credentials);
		if (storedSessionUsable(credentials)) return {};
		return { sessionToken: sessionTokenOf(credentials, serviceToken(credentials)) };
	}

	/** Generic, so the HTTP Request node can use it; a signed token only while made for this client ID and user. */
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization:
					'=Bearer {{ $credentials.authentication === "clientCredentials" ? (($credentials.sessionToken || "").startsWith(JSON.stringify([String($credentials.clientId || "").trim(), String($credentials.userId || "").trim()])) ? ($credentials.sessionToken || "").slice(JSON.stringify([String($credentials.clientId || "").trim(), String($credentials.userId || "").trim()]).length) : "") : String($credentials.accessToken || "").trim() }}',
			},
		},
	};

	/** Lists one person (host, token and credential ID together); a redirect or a login page fails it. */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.crmUrl.replace(/\\/+$/, "")}}',
			url: '/api/people',
			method: 'GET',
			qs: { limit: 1 },
			headers: { 'X-Service-Credential-Id': '={{$credentials.credentialId}}' },
			disableFollowRedirect: true,
		},
		// n8n's tester applies both kinds of rule from one list; its type allows one kind, hence the cast.
		rules: [
			...REFUSALS.map(([value, message]) => ({
				type: 'responseCode' as const,
				properties: { value, message },
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'people',
					value: undefined,
					message:
						'The CRM Host URL answered, but not with the people list: it does not look like the Integration Service (a login page or another service?)',
				},
			},
		] as IAuthenticateRuleResponseCode[],
	};
}
