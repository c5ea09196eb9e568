// SPDX-License-Identifier: MIT
// The layout asks HarfBuzz's tables for a character's general category, and Swift's for
// Default_Ignorable_Code_Point only in the categories that property has members in
// (GeneralCategory): over every code point of the planes in use, the answers must be Swift's.

@testable import Assets
import Testing

@Suite struct CharacterPropertiesTests {
    @Test func spacesAndHiddenCharactersAreSwiftsOwn() {
        var spaces = 0, hidden = 0
        for value in Array(UInt32(0)...0x3_FFFF) + Array(UInt32(0xE_0000)...0xE_0FFF) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = GeneralCategory.of(value), properties = scalar.properties
            let space = properties.generalCategory == .spaceSeparator
            let ignorable = properties.isDefaultIgnorableCodePoint
            #expect(GeneralCategory.isSpace(category) == space, "U+\(String(value, radix: 16, uppercase: true)) Zs")
            #expect(GeneralCategory.isDefaultIgnorable(scalar, category, script: Script.of(value)) == ignorable,
                    "U+\(String(value, radix: 16, uppercase: true)) Default_Ignorable_Code_Point")
            if space { spaces += 1 }
            if ignorable { hidden += 1 }
        }
        #expect(spaces == 17 && hidden > 4000)
    }
}
