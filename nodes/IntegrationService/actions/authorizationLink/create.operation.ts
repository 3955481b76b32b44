import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entitiesToSyncProperty, toEntitiesToSync } from '../../helpers/entityFlags';
import { optionalText, parseJsonParameter, requireText } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'App Key',
		name: 'appKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. my-crm-app',
		description:
			'Key of the external application the end user will grant access to, as registered with the Integration Service',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Custom Params',
				name: 'customParams',
				type: 'json',
				default: '{}',
				description:
					'Extra values as a JSON object, passed to the service unchanged, e.g. {"tenant": "acme"}',
			},
			entitiesToSyncProperty({
				description:
					'Which kinds of records the new connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			}),
			{
				displayName: 'Plan',
				name: 'plan',
				type: 'string',
				default: '',
				placeholder: 'e.g. premium',
				description: 'Plan to attach to the new connection, as named by the Integration Service',
			},
			{
				displayName: 'Return URI',
				name: 'returnURI',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://example.com/connected',
				description: 'Where to send the end user after they have granted access',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['authorizationLink'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const body: IDataObject = {
		appKey: requireText(this, itemIndex, 'App Key', this.getNodeParameter('appKey', itemIndex, '')),
	};
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const plan = optionalText(this, itemIndex, 'Plan', additional.plan);
	if (plan !== undefined) body.plan = plan;
	if (additional.customParams !== undefined && additional.customParams !== '') {
		body.customParams = parseJsonParameter(this, itemIndex, 'Custom Params', additional.customParams, 'object');
	}
	if (additional.entitiesToSync !== undefined) {
		const flags = toEntitiesToSync(this, itemIndex, additional.entitiesToSync);
		if (Object.keys(flags).length) body.entitiesToSync = flags;
	}
	const returnURI = optionalText(this, itemIndex, 'Return URI', additional.returnURI);
	if (returnURI !== undefined) body.returnURI = returnURI;

	const link = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'universal', path: ['oauth', 'authorize-url'], body },
		run,
	);
	return [link];
}
