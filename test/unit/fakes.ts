/**
 * Stand-ins for the n8n contexts the pure modules are called with: just the members they use, so that
 * the unit layer needs no engine and no HTTP.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

export const NODE: INode = {
	id: 'n',
	name: 'Integration Service',
	type: 'n8n-nodes-integration-service.integrationService',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export const TOKEN = 'token-123456';

export function credentials(overrides: IDataObject = {}): IDataObject {
	return {
		crmUrl: 'https://crm.test',
		universalUrl: 'https://u.test',
		losUrl: 'https://los.test',
		calendarUrl: 'https://cal.test',
		credentialId: 'cred-1',
		authentication: 'accessToken',
		accessToken: TOKEN,
		...overrides,
	};
}

/** What the transport hands to httpRequestWithAuthentication for one attempt. */
export interface SentRequest {
	credentialType: string;
	method?: string;
	url: string;
	qs?: IDataObject;
	headers?: IDataObject;
	body?: unknown;
	encoding?: string;
}

/** One scripted answer: a page (a 200 with its JSON), a raw answer, or an error the HTTP client throws. */
export type Scripted =
	| IDataObject
	| { raw: { statusCode: number; headers?: IDataObject; body: string } }
	| { throws: unknown };

function answerOf(step: Scripted): { statusCode: number; headers: IDataObject; body: string } {
	if ('throws' in step) throw step.throws;
	if (
		'raw' in step &&
		typeof step.raw === 'object' &&
		step.raw !== null &&
		'statusCode' in step.raw
	) {
		const raw = step.raw as { statusCode: number; headers?: IDataObject; body: string };
		return {
			statusCode: raw.statusCode,
			headers: raw.headers ?? { 'content-type': 'application/json' },
			body: raw.body,
		};
	}
	return {
		statusCode: 200,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(step),
	};
}

/**
 * A context for the transport: `getNode`, `getCredentials` and a `helpers.httpRequestWithAuthentication`
 * that records every request and answers from the script, in order (or from a function of the request).
 */
export function fakeServiceContext(
	script: Scripted[] | ((request: SentRequest) => Scripted),
	creds: IDataObject = credentials(),
) {
	const sent: SentRequest[] = [];
	const remaining = typeof script === 'function' ? [] : [...script];
	const context = {
		getNode: () => NODE,
		getCredentials: async () => creds,
		helpers: {
			httpRequestWithAuthentication: async (
				credentialType: string,
				options: IHttpRequestOptions,
			) => {
				sent.push({
					credentialType,
					method: options.method,
					url: options.url,
					qs: options.qs as IDataObject | undefined,
					headers: options.headers as IDataObject | undefined,
					body: options.body,
					encoding: options.encoding,
				});
				const step =
					typeof script === 'function' ? script(sent[sent.length - 1]) : remaining.shift();
				if (step === undefined) throw new Error(`unscripted request to ${options.url}`);
				return answerOf(step);
			},
		},
	};
	return { ctx: context as unknown as IExecuteFunctions, sent, remaining };
}

/** A context for the field mapper: parameters from a plain object, one input item. */
export function fakeExecuteContext(
	parameters: IDataObject,
	input: IDataObject = {},
): IExecuteFunctions {
	const context = {
		getNode: () => NODE,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			Object.prototype.hasOwnProperty.call(parameters, name) ? parameters[name] : fallback,
		getInputData: () => [{ json: input }],
	};
	return context as unknown as IExecuteFunctions;
}

/** The error a call throws (the test fails when it throws none). */
export function thrownBy(call: () => unknown): Error {
	try {
		call();
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected the call to throw, it returned');
}
