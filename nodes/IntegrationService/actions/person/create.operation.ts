import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addressesProperty, toAddresses } from '../../helpers/addresses';
import { contactValuesProperty, toContactValues } from '../../helpers/contactValues';
import { communicationsConsentProperty, toCommunicationsConsent } from '../../helpers/entityFlags';
import { optionalText, toNumber, toStringList } from '../../helpers/validation';
import { credentialIdOverrideFor } from '../common.descriptions';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';

/** How one body field (spec 2.1 / 4.2) is read from the node and turned into its wire value. */
type FieldKind = 'text' | 'number' | 'stringList' | 'contactValues' | 'addresses' | 'consent';

/**
 * The 24 writable fields of spec 4.2 besides firstName and lastName, all under Additional Fields;
 * each parameter is named as its wire field. The label is the UI name, used in error messages.
 */
const ADDITIONAL_FIELDS: ReadonlyArray<{ name: string; label: string; kind: FieldKind }> = [
	{ name: 'timezone', label: 'Timezone', kind: 'text' },
	{ name: 'stage', label: 'Stage', kind: 'text' },
	{ name: 'stageId', label: 'Stage ID', kind: 'text' },
	{ name: 'assignedUserId', label: 'Assigned User ID', kind: 'text' },
	{ name: 'assignedPondId', label: 'Assigned Pond ID', kind: 'text' },
	{ name: 'officeId', label: 'Office ID', kind: 'text' },
	{ name: 'timeframeId', label: 'Timeframe ID', kind: 'text' },
	{ name: 'emails', label: 'Emails', kind: 'contactValues' },
	{ name: 'phones', label: 'Phones', kind: 'contactValues' },
	{ name: 'addresses', label: 'Addresses', kind: 'addresses' },
	{ name: 'tags', label: 'Tags', kind: 'stringList' },
	{ name: 'source', label: 'Source', kind: 'text' },
	{ name: 'systemSource', label: 'System Source', kind: 'text' },
	{ name: 'averageBeds', label: 'Average Beds', kind: 'number' },
	{ name: 'averagePrice', label: 'Average Price', kind: 'number' },
	{ name: 'birthday', label: 'Birthday', kind: 'text' },
	{ name: 'rating', label: 'Rating', kind: 'number' },
	{ name: 'lastActivity', label: 'Last Activity', kind: 'text' },
	{ name: 'lastActivityType', label: 'Last Activity Type', kind: 'text' },
	{ name: 'contactTypes', label: 'Contact Types', kind: 'stringList' },
	{ name: 'jobTitle', label: 'Job Title', kind: 'text' },
	{ name: 'companyName', label: 'Company Name', kind: 'text' },
	{ name: 'communicationsConsent', label: 'Communications Consent', kind: 'consent' },
	{ name: 'sourceId', label: 'Source ID', kind: 'text' },
];

const properties: INodeProperties[] = [
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ada',
		description: "The person's first (given) name, sent as entered",
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
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Further fields of the new person. Only the fields you add are sent.',
		options: [
			addressesProperty({
				description:
					"The person's postal addresses. Each address has optional text parts (type, street, city, state, postal code, country), each passed through unchanged; an address with no part set is an error.",
			}),
			{
				displayName: 'Assigned Pond ID',
				name: 'assignedPondId',
				type: 'string',
				default: '',
				description: 'ID, in the connected CRM, of the pond (shared pool of leads) the person is assigned to',
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
					"When the person was last active, as text, passed through unchanged (the service does not state a format; an ISO 8601 timestamp such as 2024-05-01T10:00:00Z is typical)",
			},
			{
				displayName: 'Last Activity Type',
				name: 'lastActivityType',
				type: 'string',
				default: '',
				placeholder: 'e.g. call',
				description: "Kind of the person's last activity (e.g. call, email, showing), passed through unchanged",
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
				description: 'Where the person came from (lead source name, e.g. Website or Referral), passed through unchanged',
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
				description: "Name of the person's stage in the CRM pipeline (e.g. Lead), passed through unchanged",
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['person'], operation: ['create'] } },
	properties,
);

/** The wire value of one additional field, or undefined when it is unset and must not be sent. */
function wireValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: { label: string; kind: FieldKind },
	raw: unknown,
): unknown {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const { label, kind } = field;
	switch (kind) {
		case 'text':
			return optionalText(ctx, itemIndex, label, raw);
		case 'number':
			return toNumber(ctx, itemIndex, label, raw);
		case 'stringList': {
			const list = toStringList(ctx, itemIndex, label, raw);
			return list.length ? list : undefined;
		}
		case 'contactValues': {
			const values = toContactValues(ctx, itemIndex, label, raw);
			return values.length ? values : undefined;
		}
		case 'addresses': {
			const addresses = toAddresses(ctx, itemIndex, label, raw);
			return addresses.length ? addresses : undefined;
		}
		case 'consent': {
			const consent = toCommunicationsConsent(ctx, itemIndex, raw);
			return Object.keys(consent).length ? consent : undefined;
		}
	}
}

/** Builds the request body of one item; every check runs here, before anything is sent. */
export function personBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const body: IDataObject = {};
	const firstName = optionalText(ctx, itemIndex, 'First Name', ctx.getNodeParameter('firstName', itemIndex, ''));
	if (firstName !== undefined) body.firstName = firstName;
	const lastName = optionalText(ctx, itemIndex, 'Last Name', ctx.getNodeParameter('lastName', itemIndex, ''));
	if (lastName !== undefined) body.lastName = lastName;

	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const field of ADDITIONAL_FIELDS) {
		const value = wireValue(ctx, itemIndex, field, additional[field.name]);
		if (value !== undefined) body[field.name] = value as IDataObject[keyof IDataObject];
	}
	return body;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const body = personBody(this, itemIndex);
	const credentialId = credentialIdOverrideFor(this, itemIndex);
	const person = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'crm', path: ['people'], body, credentialId },
		run,
	);
	return [person];
}
