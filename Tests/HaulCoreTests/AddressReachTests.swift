import HaulCore
import Testing

/// Private Network Access for links found in playlists.
struct AddressReachTests {
    @Test(arguments: [
        ("127.0.0.1", AddressReach.local), ("127.9.8.7", .local), ("0.0.0.0", .local), ("::1", .local), ("::", .local),
        ("::ffff:127.0.0.1", .local), ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork),
        ("172.31.255.255", .privateNetwork), ("192.168.1.1", .privateNetwork), ("169.254.169.254", .privateNetwork),
        ("100.64.0.1", .privateNetwork), ("fd00::1", .privateNetwork), ("fe80::1%eth0", .privateNetwork),
        ("::ffff:10.0.0.1", .privateNetwork), ("172.32.0.1", .publicNetwork), ("8.8.8.8", .publicNetwork),
        ("2001:db8::1", .publicNetwork), ("100.128.0.1", .publicNetwork),
    ])
    func reach(address: String, expected: AddressReach) {
        #expect(AddressReach(address: address) == expected)
    }

    @Test(arguments: ["", "localhost", "1.2.3", "1.2.3.4.5", "256.0.0.1", "1:2:3:4:5:6:7:8:9", "1::2::3", "::gggg", "１.2.3.4"])
    func notAnAddress(text: String) {
        #expect(AddressReach(address: text) == nil)
    }

    @Test func aPublicPlaylistMayNotLeadToThisMachineOrAPrivateNetwork() {
        #expect(!AddressReach.allows(origin: .publicNetwork, target: .local))
        #expect(!AddressReach.allows(origin: .publicNetwork, target: .privateNetwork))
        #expect(!AddressReach.allows(origin: .publicNetwork, target: nil))
        #expect(AddressReach.allows(origin: .publicNetwork, target: .publicNetwork))
        #expect(AddressReach.allows(origin: .local, target: .local))
        #expect(AddressReach.allows(origin: .privateNetwork, target: .local))
    }
}
