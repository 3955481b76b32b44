import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { entriesReader, inputError, refuseUnknownKeys, withoutValue } from '../validation';
import { entryListKind } from './entryList';
import type { Kind } from './kind';
import { optionalText } from './text';

export const ADDRESS_PARTS = ['type', 'street', 'city', 'state', 'code', 'country'] as const;

const part = (displayName: string, name: string, placeholder?: string, description?: string) => ({
	displayName,
	name,
	type: 'string' as const,
	default: '',
	...(placeholder ? { placeholder } : {}),
	...(description ? { description } : {}),
});

function addressesProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
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
					part('Type', 'type', 'home', 'Kind of address, e.g. home or mailing'),
					part('Street', 'street', '1 Main St'),
					part('City', 'city'),
					part('State', 'state', 'CA'),
					part('Postal Code', 'code', '94105'),
					part('Country', 'country', 'US'),
				],
			},
		],
		...overrides,
	};
}

/** Every part optional, an address with no part is an error. */
const toAddresses = entriesReader(
	{ list: 'addresses', entry: 'must be an object' },
	(ctx, itemIndex, entry, { field, number, label }) => {
		refuseUnknownKeys(ctx, itemIndex, label, entry, ADDRESS_PARTS);
		const address: IDataObject = {};
		for (const part of ADDRESS_PARTS) {
			const value = withoutValue(ctx, itemIndex, entry[part], () =>
				optionalText(ctx, itemIndex, `${label} › ${part}`, entry[part]),
			);
			if (value !== undefined) address[part] = value;
		}
		if (Object.keys(address).length === 0)
			throw inputError(ctx, itemIndex, field, `entry ${number} is empty`);
		return address;
	},
);

export const addresses: Kind = entryListKind(
	'address',
	ADDRESS_PARTS.map((part) => `${part} (text)`).join(', '),
	addressesProperty,
	(at, raw) => toAddresses(at.ctx, at.itemIndex, at.label, raw),
);
