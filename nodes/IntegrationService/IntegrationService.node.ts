import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RESOURCES } from '../shared/catalogue';
import { LIST_SEARCH } from './actions/listSearch';
import { RESOURCE_MODULES } from './actions/entity';
import { router } from './actions/router';
import { NODE_WIDE_PROPERTIES } from './actions/settings';

export class IntegrationService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Service',
		name: 'integrationService',
		icon: {
			light: 'file:../../icons/integrationService.svg',
			dark: 'file:../../icons/integrationService.dark.svg',
		},
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Read and write CRM people, connection credentials, loan borrowers and documents, and CRM and calendar webhooks through the Integration Service',
		defaults: { name: 'Integration Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'integrationServiceApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCES.map(({ label, value, description }) => ({
					name: label,
					value,
					description,
				})),
				default: 'person',
			},
			...Object.values(RESOURCE_MODULES).flatMap((resource) => resource.description),
			...NODE_WIDE_PROPERTIES,
		],
	};

	methods = { listSearch: LIST_SEARCH };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
