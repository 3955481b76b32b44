import { customApiCallResource } from '../../../shared/catalogue/services';
import { handWritten } from '../handWritten';
import * as send from './send';

/**
 * Custom API Call › Custom API Call: any endpoint of the service. The option is named as the
 * resource: n8n adds its own "Custom API Call" (to the HTTP Request node) to an operation list whose
 * last option has another name.
 */
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
