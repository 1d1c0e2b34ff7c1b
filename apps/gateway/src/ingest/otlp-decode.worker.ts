// The decoding thread's entry (piscina runs its default export for each task).
import { decodeOtlpExport } from './otlp-decoding';

export default decodeOtlpExport;
