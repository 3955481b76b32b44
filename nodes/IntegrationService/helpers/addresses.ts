import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError } from './validation';

const ADDRESS_PARTS = ['type', 'street', 'city', 'state', 'code', 'country'] as const;

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
					{ displayName: 'Type', name: 'type', type: 'string', default: '', placeholder: 'home', description: 'Kind of address, e.g. home or mailing' },
					{ displayName: 'Street', name: 'street', type: 'string', default: '', placeholder: '1 Main St' },
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'State', name: 'state', type: 'string', default: '', placeholder: 'CA' },
					{ displayName: 'Postal Code', name: 'code', type: 'string', default: '', placeholder: '94105' },
					{ displayName: 'Country', name: 'country', type: 'string', default: '', placeholder: 'US' },
				],
			},
		],
		...overrides,
	};
}

export function toAddresses(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
): IDataObject[] {
	const entries = Array.isArray(raw) ? raw : ((raw as IDataObject | undefined)?.values ?? []);
	if (!Array.isArray(entries)) {
		throw inputError(ctx, itemIndex, field, 'must be a list of addresses');
	}
	return entries.map((entry, position) => {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			throw inputError(ctx, itemIndex, field, `entry ${position + 1} must be an object`);
		}
		const address: IDataObject = {};
		for (const part of ADDRESS_PARTS) {
			const value = (entry as IDataObject)[part];
			if (value === undefined || value === null || value === '') continue;
			if (typeof value === 'object') {
				throw inputError(ctx, itemIndex, `${field} › entry ${position + 1} › ${part}`, 'must be text');
			}
			address[part] = String(value);
		}
		if (Object.keys(address).length === 0) {
			throw inputError(ctx, itemIndex, field, `entry ${position + 1} is empty`);
		}
		return address;
	});
}
