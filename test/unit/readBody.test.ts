/**
 * The transport's body reader (nodes/IntegrationService/transport/attempt.ts) on streams made here:
 * whole answers come back as text however they are cut into chunks, a larger one stops being read at
 * the bound, and a stream that ends without its 'end' (closed early, broken, or closed already) is an
 * error, never a short answer. The hostile suite checks the same over real sockets.
 */
import { PassThrough } from 'stream';

import { Undecodable } from '../../nodes/IntegrationService/transport/answer';
import { readBody, TooLarge } from '../../nodes/IntegrationService/transport/attempt';

function streamOf(chunks: Array<Buffer | string>): PassThrough {
	const stream = new PassThrough();
	for (const chunk of chunks) stream.write(chunk);
	stream.end();
	return stream;
}

describe('readBody', () => {
	it('joins chunks into one text, also a character split across two chunks', async () => {
		const bytes = Buffer.from('{"name":"Zoë Ångström"}');
		const split = bytes.indexOf(Buffer.from('ë')) + 1;
		const stream = streamOf([bytes.subarray(0, split), bytes.subarray(split)]);
		await expect(readBody(stream, 1024)).resolves.toBe('{"name":"Zoë Ångström"}');
	});

	it('reads an answer of exactly the bound, and refuses one byte more without reading on', async () => {
		await expect(readBody(streamOf(['abc', 'de']), 5)).resolves.toBe('abcde');
		const larger = streamOf(['abc', 'def', 'ghi']);
		await expect(readBody(larger, 5)).rejects.toBeInstanceOf(TooLarge);
		expect(larger.destroyed).toBe(true);
	});

	it('an answer closed before its end is an error, not the part that came', async () => {
		const stream = new PassThrough();
		stream.write('{"people":[');
		const reading = readBody(stream, 1024);
		stream.destroy();
		await expect(reading).rejects.toThrow('closed before its end');
	});

	it('an answer that breaks off with an error rejects with that error', async () => {
		const stream = new PassThrough();
		stream.write('{"people":[');
		const reading = readBody(stream, 1024);
		stream.destroy(new Error('socket hang up'));
		await expect(reading).rejects.toThrow('socket hang up');
	});

	it('an answer whose stream was closed before reading began is an error', async () => {
		const stream = new PassThrough();
		stream.destroy();
		await new Promise((resolve) => setImmediate(resolve));
		await expect(readBody(stream, 1024)).rejects.toThrow('closed before its end');
	});

	it('an empty answer, a string and a Buffer are read as they are', async () => {
		await expect(readBody(streamOf([]), 10)).resolves.toBe('');
		await expect(readBody('{"a":1}', 10)).resolves.toBe('{"a":1}');
		await expect(readBody(Buffer.from('{"a":1}'), 10)).resolves.toBe('{"a":1}');
		await expect(readBody('x'.repeat(11), 10)).rejects.toBeInstanceOf(TooLarge);
	});

	it('decodes the whole answer as its declared charset, strictly: a byte that is not text is said, not replaced', async () => {
		const latin1 = Buffer.from('{"name":"M\xfcller"}', 'latin1');
		await expect(
			readBody(
				streamOf([latin1.subarray(0, 12), latin1.subarray(12)]),
				1024,
				'application/json; charset=iso-8859-1',
			),
		).resolves.toBe('{"name":"Müller"}');
		await expect(readBody(streamOf([latin1]), 1024, 'application/json')).resolves.toBeInstanceOf(
			Undecodable,
		);
		await expect(readBody(latin1, 1024)).resolves.toBeInstanceOf(Undecodable);
	});
});
