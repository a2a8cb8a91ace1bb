import { describe, expect, it } from "vitest";
import { embeddedSqlLines, sqlString, statementCount, withoutTerminator } from "../../profile/study/sql-text.js";

describe("withoutTerminator", () => {
  it("drops the terminating ';' and the comments after it, and nothing else", () => {
    expect(withoutTerminator("SELECT 1;")).toBe("SELECT 1");
    expect(withoutTerminator("SELECT 1 ;  -- done\n")).toBe("SELECT 1 ");
    expect(withoutTerminator("SELECT 1; /* a; b */ ")).toBe("SELECT 1");
    expect(withoutTerminator("SELECT 1 -- no terminator")).toBe("SELECT 1 -- no terminator");
    expect(withoutTerminator("-- first; line\nSELECT 2;")).toBe("-- first; line\nSELECT 2");
  });

  it("reads ';' and '--' inside literals, quoted identifiers and comments as text", () => {
    expect(withoutTerminator("SELECT ';'")).toBe("SELECT ';'");
    expect(withoutTerminator("SELECT 'it''s;' AS \"a;b\";")).toBe("SELECT 'it''s;' AS \"a;b\"");
    expect(withoutTerminator("SELECT '--';")).toBe("SELECT '--'");
    expect(withoutTerminator("SELECT 1 /* ; */")).toBe("SELECT 1 /* ; */");
  });
});

describe("statementCount", () => {
  it("counts the statements the top-level ';' separate, not empty ones nor ';' in text", () => {
    expect(statementCount("SELECT 1")).toBe(1);
    expect(statementCount("SELECT 1;;  -- done")).toBe(1);
    expect(statementCount("SELECT 1; SELECT 2;")).toBe(2);
    expect(statementCount("SELECT ';' AS \"a;b\" /* ; */ -- ;\n")).toBe(1);
    expect(statementCount("PIVOT parameter ON name USING first(value)")).toBe(1);
    expect(statementCount("  -- nothing\n /* here */ ;")).toBe(0);
  });
});

describe("sqlString", () => {
  it("quotes a text as a string literal, doubling its quotes, so that it stays one literal", () => {
    expect(sqlString("Q")).toBe("'Q'");
    expect(sqlString("it's")).toBe("'it''s'");
    expect(sqlString("'; DROP TABLE point; --")).toBe("'''; DROP TABLE point; --'");
    expect(withoutTerminator(`SELECT ${sqlString("a;'b")};`)).toBe("SELECT 'a;''b'");
  });
});

describe("embeddedSqlLines", () => {
  it("counts DuckDB's LINE references in the embedded SQL's lines, the caret under the same character", () => {
    const message = 'Binder Error: Referenced column "x" not found\n\nLINE 4: where x = 1\n              ^';
    expect(embeddedSqlLines(message, 1)).toBe('Binder Error: Referenced column "x" not found\n\nLINE 3: where x = 1\n              ^');
    // One digit fewer: the caret moves left with the text.
    expect(embeddedSqlLines("Parser Error: syntax error\n\nLINE 10: from p where\n                    ^", 1)).toBe("Parser Error: syntax error\n\nLINE 9: from p where\n                   ^");
    // No reference, or one to a line before the embedded SQL: unchanged.
    expect(embeddedSqlLines("IO Error: cannot open file", 1)).toBe("IO Error: cannot open file");
    expect(embeddedSqlLines("Parser Error: x\n\nLINE 1: COPY (\n      ^", 1)).toBe("Parser Error: x\n\nLINE 1: COPY (\n      ^");
  });
});
