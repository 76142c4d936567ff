/** One character of a read, with how sure the reader was of it (0–100). */
export interface ReadCharacter {
  char: string;
  confidence: number;
}

/** What the reader made of one frame: the plate as letters and digits, empty when it saw no plate. */
export interface PlateRead {
  text: string;
  characters: ReadCharacter[];
  /** Milliseconds the OCR call took, and the whole read (preprocessing included), in the reader's worker. */
  ocrMs: number;
  totalMs: number;
}

/** The plate reader's worker, through Comlink. */
export interface PlateReaderApi {
  /** Loads the OCR engine and its model (the first read does it otherwise). */
  warmUp(): Promise<void>;
  /** Reads the plate in a frame already cropped to the guide box (an ImageBitmap is transferred, not copied). */
  read(frame: ImageBitmap | ImageData): Promise<PlateRead>;
}
