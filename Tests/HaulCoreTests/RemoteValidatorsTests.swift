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

    @Test func etagsAreComparedOnlyFromTheSameHostOrServerSoftware() {
        let nginx = RemoteValidators(etag: "\"a\"", server: "nginx/1.24.0", host: "a.example")
        #expect(nginx.etagsComparable(with: RemoteValidators(server: "nginx", host: "b.example")))
        #expect(nginx.etagsComparable(with: RemoteValidators(server: "Apache/2.4.62 (Debian)", host: "a.example")))
        #expect(!nginx.etagsComparable(with: RemoteValidators(server: "Apache/2.4.62 (Debian)", host: "b.example")))
        #expect(!nginx.etagsComparable(with: RemoteValidators(host: "b.example")))
        // Validators recorded before their host was are compared as they always were.
        #expect(RemoteValidators(etag: "\"a\"").etagsComparable(with: RemoteValidators(server: "Apache", host: "b.example")))
        #expect(nginx.contradicted(by: RemoteValidators(etag: "\"b\"", server: "Apache", host: "b.example")) == nil)
        #expect(nginx.mismatch(with: RemoteValidators(etag: "\"b\"", server: "nginx/1.26", host: "b.example"))
            == RemoteValidators.Mismatch(validator: .etag, recorded: "\"a\"", offered: "\"b\""))
    }

    @Test func theServerSoftwareIsTheProductWithoutVersionOrComment() {
        #expect(RemoteValidators(server: "Apache/2.4.62 (Debian)").serverSoftware == "apache")
        #expect(RemoteValidators(server: " nginx ").serverSoftware == "nginx")
        #expect(RemoteValidators(server: "").serverSoftware == nil)
        #expect(RemoteValidators().serverSoftware == nil)
    }
}
