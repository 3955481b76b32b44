import type { FieldSpec } from '../../../shared/catalogue';
import { readEntries } from '../validation';
import { entryListKind } from './entryList';
import type { Kind } from './kind';
import { objectListProperty, partsInWords, readEntry, textPart as part } from './objectList';

/** Postal addresses: every part optional text, an address with no part is an error. */
const PARTS: readonly FieldSpec[] = [
	part('Type', 'type', 'home', 'Kind of address, e.g. home or mailing'),
	part('Street', 'street', '1 Main St'),
	part('City', 'city'),
	part('State', 'state', 'CA'),
	part('Postal Code', 'code', '94105'),
	part('Country', 'country', 'US'),
];

export const addresses: Kind = entryListKind(
	'address',
	(spec, fields) =>
		objectListProperty({ ...spec, placeholder: 'Add Address' }, PARTS.map(fields.part)),
	(at, raw, fields) =>
		readEntries(at, raw, { list: 'addresses', entry: 'must be an object' }, (place, entry) =>
			readEntry(place, entry, PARTS, fields),
		),
	(fields) => partsInWords(PARTS, fields),
);
