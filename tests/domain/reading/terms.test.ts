/** @module Tests of index terms: stop words, the crude cut, and each language's stemmer on its own script. */
import { describe, expect, test } from "bun:test";
import { termReader, terms } from "../../../src/domain/reading/terms.ts";

describe("terms()", () => {
  test("without a language: stop words dropped, long words cut to six code points", () => {
    expect(terms("The keyboards of the tablet")).toEqual(["keyboa", "tablet"]);
  });

  test("with the text's language, its stemmer joins the forms of a word", () => {
    expect(terms("painted", "en")).toEqual(terms("paint", "en"));
    expect(terms("ферма", "ru")).toEqual(terms("ферме", "ru"));
    expect(terms("pintaron", "es")).toEqual(terms("pintar", "es"));
    expect(terms("pintaram", "pt")).toEqual(terms("pintar", "pt"));
    expect(terms("लड़कों", "hi")).toEqual(terms("लड़का", "hi"));
  });

  test("a word in another script than the language's keeps the six-point cut", () => {
    expect(terms("планшета", "en")).toEqual(["планше"]);
    expect(terms("tablets", "ru")).toEqual(["tablet"]);
  });

  test("a reader gives the same terms as terms(), text after text", () => {
    const read = termReader("es");
    for (const text of ["Los faros pintados", "El farero pintó el faro"]) expect(read(text)).toEqual(terms(text, "es"));
  });
});
