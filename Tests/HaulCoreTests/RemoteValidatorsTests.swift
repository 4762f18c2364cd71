import HaulCore
import Testing

/// When a later answer says the file is another one.
struct RemoteValidatorsTests {
    @Test func aValidatorTheLaterAnswerLacksContradictsNothing() {
        let stored = RemoteValidators(etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")
        #expect(stored.contradicted(by: RemoteValidators()) == nil)
        #expect(stored.contradicted(by: RemoteValidators(etag: "\"v2\"")) == "the ETag")
        #expect(stored.contradicted(by: RemoteValidators(lastModified: "Tue, 02 Jan 2024 00:00:00 GMT")) == "Last-Modified")
        #expect(stored.sharesStrongETag(with: RemoteValidators(etag: "\"v1\"")))
        #expect(!RemoteValidators(etag: "W/\"v1\"").sharesStrongETag(with: RemoteValidators(etag: "W/\"v1\"")))
    }
}
