import { customApiCallResource } from '../../../shared/catalogue/services';
import { handWritten } from '../modules';
import * as send from './send';

/** Named as the resource: n8n adds its own "Custom API Call" to a list whose last option is named otherwise. */
export const { description, operations } = handWritten(
	customApiCallResource,
	[
		{
			name: 'Custom API Call',
			value: 'send',
			description:
				'Send a request to any endpoint of the Integration Service, with the connection, retries, paging and safety rules of the other operations (unlike a plain HTTP request)',
			action: 'Send a request to any endpoint',
		},
	],
	{ send },
);
