import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { recordsOf } from '../../../shared/catalogue';
import type { ServiceHost } from '../../../shared/service';
import { isJsonObject } from '../../../shared/service';
import { parseJsonObject } from '../../helpers/kinds/json';
import { inputError } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { MAX_PAGE_SIZE, serviceRequest } from '../../transport';
import { listProperties, PAGING_PARAMETERS, queryParametersProperty } from '../common.descriptions';
import { listBody, readQueryParameters, withoutOriginal } from '../list';
import { simplifyProperty } from '../entity/getAll';
import { shownFor } from '../entity/texts';
import type { EntityOperation } from '../modules';
import { connectionOf } from '../request';
import { readPath } from './path';

const HOSTS: readonly ServiceHost[] = ['crm', 'universal', 'los', 'calendar'];
/** Each host's label and what it serves, in the order of the labels. */
const HOST_SERVES: Record<string, [string, string]> = {
	calendar: ['Calendar', 'webhooks, calendars, appointments'],
	crm: ['CRM', 'people, notes, tasks'],
	los: ['LOS', 'loans, borrowers, documents'],
	universal: ['Universal', 'credentials, authorization links'],
};
const METHODS: readonly IHttpRequestMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const WITH_BODY: readonly string[] = ['POST', 'PUT', 'PATCH'];

const properties: INodeProperties[] = [
	{
		displayName: 'Host',
		name: 'host',
		type: 'options',
		options: Object.entries(HOST_SERVES).map(([value, [name, serves]]) => ({
			name,
			value,
			description: `The credential's ${name} Host URL (${serves})`,
		})),
		default: 'crm',
		description:
			"Which of the credential's four hosts to call; the request never goes anywhere else",
	},
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: [...METHODS].sort().map((method) => ({ name: method, value: method })),
		default: 'GET',
		description:
			'The HTTP method. GET, PUT and DELETE are retried after a server error; POST and PATCH are never sent again once they may have reached the service.',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. loans or loans/{{ $json.loanId }}',
		description:
			'The endpoint, relative to /api on the chosen host. Each part between the slashes you type is one path segment; a value from {{ }} stays inside its segment, sent exactly (its / ? # % encoded). A Path that is only one expression is read whole, its slashes separating segments. A URL, "." or "..", an empty part, and ? or # you type are refused.',
	},
	queryParametersProperty,
	{
		displayName: 'Body',
		name: 'body',
		type: 'json',
		default: '{}',
		description: 'The request body as a JSON object, sent unchanged',
		displayOptions: { show: { method: WITH_BODY as string[] } },
	},
	...listProperties.map((property) => ({
		...property,
		displayOptions: { show: { method: ['GET'], ...property.displayOptions?.show } },
	})),
	{
		...simplifyProperty,
		hint: 'On: one item per record of the answer\'s list (an answer that is no page of a list, such as one record, is one item), without its bulky "original". Off: each page as the service sends it (with Page at a Time: each record as sent).',
		displayOptions: { show: { method: ['GET'] } },
	},
	{
		displayName:
			'A GET reads a list page by page, as Person › Get Many does: limit and offset are sent, then the next page is followed by nextLink, next or offset, always on the same host',
		name: 'pagingNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { method: ['GET'] } },
	},
];

function oneOf<T extends string>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	[field, name, fallback]: [string, string, T],
	allowed: readonly T[],
): T {
	const value = ctx.getNodeParameter(name, itemIndex, fallback);
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as T;
	const problem = `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`;
	throw inputError(ctx, itemIndex, field, problem);
}

/** Any endpoint through the transport, with every rule of the other operations (and, for GET, the pager). */
async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const host = oneOf(this, itemIndex, ['Host', 'host', 'crm'], HOSTS);
	const method = oneOf(this, itemIndex, ['Method', 'method', 'GET'], METHODS);
	const path = readPath(this, itemIndex);
	const given = this.getNodeParameter('queryParameters', itemIndex, {});
	const reserved = method === 'GET' ? PAGING_PARAMETERS : [];
	const qs = readQueryParameters(this, itemIndex, 'Query Parameters', given, reserved);
	const connection = connectionOf(this, itemIndex);

	if (method !== 'GET') {
		const raw = WITH_BODY.includes(method) ? this.getNodeParameter('body', itemIndex, '{}') : '';
		const body =
			raw === undefined || raw === '' ? undefined : parseJsonObject(this, itemIndex, 'Body', raw);
		return [
			await serviceRequest.call(this, itemIndex, { method, host, path, qs, body, connection }, run),
		];
	}

	return await listBody(this, itemIndex, run, {
		page: {
			request: { method, host, path, qs, connection },
			pageSize: MAX_PAGE_SIZE,
			recordsKey: recordsOf,
		},
		batchKey: 'records',
		rawPages: true,
		// A batch is its records; without one, Simplify off outputs each page as the service sent it.
		record: (record, simplify) =>
			!simplify ? record : isJsonObject(record) ? withoutOriginal(record) : { value: record },
	});
}

/** Named as the resource: n8n adds its own "Custom API Call" to a list whose last option is named otherwise. */
export const operations: Record<string, EntityOperation> = {
	send: {
		module: (resource) => ({
			description: updateDisplayOptions(shownFor(resource, 'send'), properties),
			execute,
		}),
		option: () => ({
			name: 'Custom API Call',
			description:
				'Send a request to any endpoint of the Integration Service, with the connection, retries, paging and safety rules of the other operations (unlike a plain HTTP request)',
			action: 'Send a request to any endpoint',
		}),
	},
};
