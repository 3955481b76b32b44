import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entitiesToSyncProperty, toEntitiesToSync } from '../../helpers/entityFlags';
import { inputError, parseJsonParameter, requireText, optionalText } from '../../helpers/validation';
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
		description: 'Key of the external application to connect, as registered with the Integration Service',
	},
	{
		displayName: 'User Inputs',
		name: 'userInputs',
		type: 'json',
		required: true,
		default: '{}',
		description:
			'The values the external application needs to connect (for example its API key or account ID), as a JSON object, e.g. {"apiKey": "…"}. Sent unchanged.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Credential Key',
				name: 'credentialKey',
				type: 'string',
				default: '',
				description: 'Your own key for this connection, for example the ID of the end user it belongs to',
			},
			entitiesToSyncProperty({
				description:
					'Which kinds of records the connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			}),
			{
				displayName: 'Plan',
				name: 'plan',
				type: 'string',
				default: '',
				placeholder: 'e.g. premium',
				description: 'Plan to attach to the connection, as named by the Integration Service',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['credential'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const appKey = requireText(this, itemIndex, 'App Key', this.getNodeParameter('appKey', itemIndex, ''));
	const rawInputs = this.getNodeParameter('userInputs', itemIndex, '');
	if (rawInputs === undefined || rawInputs === null || (typeof rawInputs === 'string' && rawInputs.trim() === '')) {
		throw inputError(this, itemIndex, 'User Inputs', 'is required but empty; give a JSON object such as {"apiKey": "…"}');
	}
	const body: IDataObject = {
		appKey,
		userInputs: parseJsonParameter(this, itemIndex, 'User Inputs', rawInputs, 'object'),
	};
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const credentialKey = optionalText(this, itemIndex, 'Credential Key', additional.credentialKey);
	if (credentialKey !== undefined) body.credentialKey = credentialKey;
	const plan = optionalText(this, itemIndex, 'Plan', additional.plan);
	if (plan !== undefined) body.plan = plan;
	if (additional.entitiesToSync !== undefined) {
		const flags = toEntitiesToSync(this, itemIndex, additional.entitiesToSync);
		if (Object.keys(flags).length) body.entitiesToSync = flags;
	}

	const created = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'universal', path: ['credentials'], body },
		run,
	);
	return [created];
}
