/** An error and its fix on one line (src/errors.ts inOneLine), as status, notices and the server log show them. */
import { describe, expect, test } from "bun:test";
import { AppError, inOneLine } from "../src/errors.ts";

describe("inOneLine", () => {
  test("a message that is no sentence yet gets its full stop before the fix", () => {
    expect(inOneLine(new AppError("MODEL_FOLDER", "No model.onnx in the model folder /m", "MODEL_NAME must be a known model id."))).toBe("No model.onnx in the model folder /m. MODEL_NAME must be a known model id.");
  });

  test("one that ends as a sentence (or a quoted one) keeps its own stop; no fix, the message alone", () => {
    expect(inOneLine(new AppError("CONFIG", "RAG_HYBRID_WEIGHT must be from 0 to 1.", "Fix or unset it."))).toBe("RAG_HYBRID_WEIGHT must be from 0 to 1. Fix or unset it.");
    expect(inOneLine({ message: 'It said "stop."', hint: "Go on." })).toBe('It said "stop." Go on.');
    expect(inOneLine({ message: "Is it there?", hint: "Look." })).toBe("Is it there? Look.");
    expect(inOneLine({ message: "Alone" })).toBe("Alone");
  });
});
