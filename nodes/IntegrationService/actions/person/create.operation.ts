import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	addressesProperty,
	communicationsConsentProperty,
	contactValuesProperty,
} from '../../helpers/compoundFields';
import {
	fieldGroup,
	mappingModeProperties,
	readBody,
	shownWhenMappedFromForm,
} from '../../helpers/fieldMapper';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { credentialIdOverrideFor } from '../common.descriptions';
import { shownFor } from '../node.type';

/**
 * Every writable field of a person, each parameter named as its wire field (spec 4.2), in the order of
 * their labels. Create shows the names first and the rest under Additional Fields; Update offers all
 * of them under Update Fields.
 */
export const personFields: INodeProperties[] = [
	addressesProperty({
		description:
			"The person's postal addresses. Each address has optional text parts (type, street, city, state, postal code, country), each passed through unchanged; an address with no part set is an error.",
	}),
	{
		displayName: 'Assigned Pond ID',
		name: 'assignedPondId',
		type: 'string',
		default: '',
		description:
			'ID, in the connected CRM, of the pond (shared pool of leads) the person is assigned to',
	},
	{
		displayName: 'Assigned User ID',
		name: 'assignedUserId',
		type: 'string',
		default: '',
		description: 'ID, in the connected CRM, of the user (agent) the person is assigned to',
	},
	{
		displayName: 'Average Beds',
		name: 'averageBeds',
		type: 'number',
		default: 0,
		description: 'Average number of bedrooms the person is looking for, as a number (e.g. 3)',
	},
	{
		displayName: 'Average Price',
		name: 'averagePrice',
		type: 'number',
		default: 0,
		description:
			'Average property price the person is looking for, as a plain number without currency sign or thousands separators (e.g. 450000)',
	},
	{
		displayName: 'Birthday',
		name: 'birthday',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1985-04-12',
		description:
			"The person's birthday as text, passed through unchanged (the service does not state a format; a date such as 1985-04-12 is typical)",
	},
	communicationsConsentProperty({
		description:
			'Whether the person consents to be contacted, per channel (call, email, mass email, postal, text, visit). Add a channel and switch it on (consents) or off (does not consent); channels you do not add are not sent.',
	}),
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		default: '',
		description: 'Name of the company the person works for',
	},
	{
		displayName: 'Contact Types',
		name: 'contactTypes',
		type: 'string',
		typeOptions: { multipleValues: true },
		default: [],
		placeholder: 'Add Contact Type',
		description:
			'Kinds of contact the person is (e.g. lead, client, vendor), one value per entry, each passed through unchanged. From an expression: a list of text, or one text with values separated by commas.',
	},
	contactValuesProperty('emails', {
		description:
			"The person's email addresses. Each entry needs the address; type (e.g. work), status and Is Primary are optional and passed through unchanged.",
	}),
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ada',
		description: "The person's first (given) name, sent as entered",
	},
	{
		displayName: 'Job Title',
		name: 'jobTitle',
		type: 'string',
		default: '',
		description: "The person's job title",
	},
	{
		displayName: 'Last Activity',
		name: 'lastActivity',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2024-05-01T10:00:00Z',
		description:
			'When the person was last active, as text, passed through unchanged (the service does not state a format; an ISO 8601 timestamp such as 2024-05-01T10:00:00Z is typical)',
	},
	{
		displayName: 'Last Activity Type',
		name: 'lastActivityType',
		type: 'string',
		default: '',
		placeholder: 'e.g. call',
		description:
			"Kind of the person's last activity (e.g. call, email, showing), passed through unchanged",
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Lovelace',
		description: "The person's last (family) name, sent as entered",
	},
	{
		displayName: 'Office ID',
		name: 'officeId',
		type: 'string',
		default: '',
		description: 'ID, in the connected CRM, of the office the person belongs to',
	},
	contactValuesProperty('phones', {
		description:
			"The person's phone numbers. Each entry needs the number (sent as entered); type (e.g. mobile), status and Is Primary are optional and passed through unchanged.",
	}),
	{
		displayName: 'Rating',
		name: 'rating',
		type: 'number',
		default: 0,
		description:
			'Rating of the person, as a number. The service accepts it on create but does not return it in the created person.',
	},
	{
		displayName: 'Source',
		name: 'source',
		type: 'string',
		default: '',
		placeholder: 'e.g. Website',
		description:
			'Where the person came from (lead source name, e.g. Website or Referral), passed through unchanged',
	},
	{
		displayName: 'Source ID',
		name: 'sourceId',
		type: 'string',
		default: '',
		description: 'ID, in the connected CRM, of the lead source the person came from',
	},
	{
		displayName: 'Stage',
		name: 'stage',
		type: 'string',
		default: '',
		placeholder: 'e.g. Lead',
		description:
			"Name of the person's stage in the CRM pipeline (e.g. Lead), passed through unchanged",
	},
	{
		displayName: 'Stage ID',
		name: 'stageId',
		type: 'string',
		default: '',
		description: "ID, in the connected CRM, of the person's pipeline stage",
	},
	{
		displayName: 'System Source',
		name: 'systemSource',
		type: 'string',
		default: '',
		description: 'Name of the system the person record comes from, passed through unchanged',
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		typeOptions: { multipleValues: true },
		default: [],
		placeholder: 'Add Tag',
		description:
			'Labels to attach to the person, one tag per entry. From an expression: a list of text, or one text with tags separated by commas.',
	},
	{
		displayName: 'Timeframe ID',
		name: 'timeframeId',
		type: 'string',
		default: '',
		description: "ID, in the connected CRM, of the person's buying or selling timeframe",
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'e.g. America/Chicago',
		description:
			"The person's time zone as text, passed through unchanged (the service does not state a format; an IANA name such as America/Chicago is typical)",
	},
];

/** First and last name: shown on their own on Create, where a person is usually named. */
const NAME_FIELDS = ['firstName', 'lastName'];

const bodyProperties: INodeProperties[] = [
	...personFields.filter((field) => NAME_FIELDS.includes(field.name)),
	fieldGroup(
		'additional',
		personFields.filter((field) => !NAME_FIELDS.includes(field.name)),
		'Further fields of the new person. Only the fields you add are sent.',
	),
];

export const description = updateDisplayOptions(shownFor('person', 'create'), [
	...mappingModeProperties(bodyProperties),
	...shownWhenMappedFromForm(bodyProperties),
]);

/** POST {crm}/api/people (spec 4.2): the new person. Every field is checked before anything is sent. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const body = readBody(this, itemIndex, bodyProperties, { mappingModes: true });
	const credentialId = credentialIdOverrideFor(this, itemIndex);
	const person = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'crm', path: ['people'], body, credentialId },
		run,
	);
	return [person];
}
