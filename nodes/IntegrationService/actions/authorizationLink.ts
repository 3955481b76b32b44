import { authorizationLinkResource } from '../../shared/catalogue/services';
import { appKeyField, planField, syncField } from './credential';
import { createOperation } from './entity/write';
import { entityOperation } from './entity/texts';
import type { EntityOperation } from './modules';

/** POST {universal}/api/oauth/authorize-url (spec 4.3): the link for the end user. */
const create = createOperation(authorizationLinkResource, {
	fields: [
		appKeyField(
			'Key of the external application the end user will grant access to, as registered with the Integration Service',
		),
	],
	group: {
		kind: 'additional',
		fields: [
			{
				name: 'customParams',
				label: 'Custom Params',
				type: 'json',
				description:
					'Extra values as a JSON object, passed to the service unchanged, e.g. {"tenant": "acme"}',
			},
			syncField(
				'Which kinds of records the new connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			),
			planField('Plan to attach to the new connection, as named by the Integration Service'),
			{
				name: 'returnURI',
				label: 'Return URI',
				type: 'string',
				placeholder: 'e.g. https://example.com/connected',
				description: 'Where to send the end user after they have granted access',
			},
		],
	},
});

export const operations: Record<string, EntityOperation> = {
	create: entityOperation(() => create, 'Create', [
		'in',
		': a URL an end user opens to connect an external application; returns it with a request ID',
	]),
};
