import type { INodeProperties } from 'n8n-workflow';

import { ENTITY_KINDS } from '../../shared/entityKinds';
import { COMMUNICATION_CHANNELS, flagLabel } from './fieldMapper';

/**
 * The form of each compound field (the field mapper reads them into their wire shape): contact
 * values, addresses and sets of flags, shared by the operations that send them.
 */

/**
 * Contact values (spec 2.1): `value`, `type`, `status`, `isPrimary`. Used by person emails and phones
 * and by borrower emails and phones.
 */
export function contactValuesProperty(
	name: 'emails' | 'phones',
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	const isEmail = name === 'emails';
	return {
		displayName: isEmail ? 'Emails' : 'Phones',
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: isEmail ? 'Add Email' : 'Add Phone',
		default: {},
		description: isEmail
			? 'Email addresses, each with an optional type (e.g. work), status and primary flag'
			: 'Phone numbers, each with an optional type (e.g. mobile), status and primary flag',
		options: [
			{
				displayName: isEmail ? 'Email' : 'Phone',
				name: 'values',
				values: [
					{
						displayName: isEmail ? 'Email Address' : 'Phone Number',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: isEmail ? 'name@email.com' : '+1 555 0100',
						description: isEmail ? 'The email address' : 'The phone number, sent as entered',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'string',
						default: '',
						placeholder: isEmail ? 'work' : 'mobile',
						description: 'Free-text kind of the value, as used by the connected system',
					},
					{
						displayName: 'Status',
						name: 'status',
						type: 'string',
						default: '',
						placeholder: 'valid',
						description: 'Free-text status of the value, as used by the connected system',
					},
					// Not a toggle: n8n fills a toggle's default (false) into every entry, which an update would
					// send and so demote the primary value. "Not Set" sends nothing; an old workflow's true is Yes.
					{
						displayName: 'Is Primary',
						name: 'isPrimary',
						type: 'options',
						options: [
							{ name: 'No', value: false, description: 'Sent as false' },
							{
								name: 'Not Set',
								value: '',
								description: 'Not sent: the service keeps (or chooses) the primary value',
							},
							{ name: 'Yes', value: true, description: 'Sent as true' },
						],
						default: '',
						description: 'Whether this is the primary value; Not Set sends nothing',
					},
				],
			},
		],
		...overrides,
	};
}

/** Addresses (spec 2.1): type, street, city, state, code, country; used by person and borrower. */
export function addressesProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Addresses',
		name: 'addresses',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Address',
		default: {},
		description: 'Postal addresses; every part is optional text passed through unchanged',
		options: [
			{
				displayName: 'Address',
				name: 'values',
				values: [
					{
						displayName: 'Type',
						name: 'type',
						type: 'string',
						default: '',
						placeholder: 'home',
						description: 'Kind of address, e.g. home or mailing',
					},
					{
						displayName: 'Street',
						name: 'street',
						type: 'string',
						default: '',
						placeholder: '1 Main St',
					},
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'State', name: 'state', type: 'string', default: '', placeholder: 'CA' },
					{
						displayName: 'Postal Code',
						name: 'code',
						type: 'string',
						default: '',
						placeholder: '94105',
					},
					{
						displayName: 'Country',
						name: 'country',
						type: 'string',
						default: '',
						placeholder: 'US',
					},
				],
			},
		],
		...overrides,
	};
}

/**
 * A set of boolean flags as one collection: a flag the user adds is sent as its value (true or false),
 * a flag not added is left out of the body (its default is not shown, decisions.md).
 */
function flagsProperty(
	name: string,
	displayName: string,
	keys: readonly string[],
	flagDescription: (key: string) => string,
	overrides: Partial<INodeProperties>,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Flag',
		default: {},
		options: keys
			.map((key) => ({
				displayName: flagLabel(key),
				name: key,
				type: 'boolean' as const,
				default: true,
				description: flagDescription(key),
			}))
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		...overrides,
	};
}

export function entitiesToSyncProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return flagsProperty(
		'entitiesToSync',
		'Entities to Sync',
		ENTITY_KINDS,
		(key) => `Whether to synchronise ${flagLabel(key).toLowerCase()}`,
		{
			description:
				'Which kinds of records to synchronise. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			...overrides,
		},
	);
}

export function communicationsConsentProperty(
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return flagsProperty(
		'communicationsConsent',
		'Communications Consent',
		COMMUNICATION_CHANNELS,
		(key) => `Whether the person consents to be contacted by ${flagLabel(key).toLowerCase()}`,
		{
			description: 'Consent per channel; channels you do not add are not sent',
			...overrides,
		},
	);
}
