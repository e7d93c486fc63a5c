/// `segmentation_type_id` (SCTE 35 2022 Table 23). Unknown values are kept.
public struct SegmentationType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let notIndicated = Self(0x00)
    public static let contentIdentification = Self(0x01)
    public static let callAdServer = Self(0x02)
    public static let programStart = Self(0x10)
    public static let programEnd = Self(0x11)
    public static let programEarlyTermination = Self(0x12)
    public static let programBreakaway = Self(0x13)
    public static let programResumption = Self(0x14)
    public static let programRunoverPlanned = Self(0x15)
    public static let programRunoverUnplanned = Self(0x16)
    public static let programOverlapStart = Self(0x17)
    public static let programBlackoutOverride = Self(0x18)
    public static let programJoin = Self(0x19)
    public static let chapterStart = Self(0x20)
    public static let chapterEnd = Self(0x21)
    public static let breakStart = Self(0x22)
    public static let breakEnd = Self(0x23)
    public static let openingCreditStart = Self(0x24)
    public static let openingCreditEnd = Self(0x25)
    public static let closingCreditStart = Self(0x26)
    public static let closingCreditEnd = Self(0x27)
    public static let providerAdvertisementStart = Self(0x30)
    public static let providerAdvertisementEnd = Self(0x31)
    public static let distributorAdvertisementStart = Self(0x32)
    public static let distributorAdvertisementEnd = Self(0x33)
    public static let providerPlacementOpportunityStart = Self(0x34)
    public static let providerPlacementOpportunityEnd = Self(0x35)
    public static let distributorPlacementOpportunityStart = Self(0x36)
    public static let distributorPlacementOpportunityEnd = Self(0x37)
    public static let providerOverlayPlacementOpportunityStart = Self(0x38)
    public static let providerOverlayPlacementOpportunityEnd = Self(0x39)
    public static let distributorOverlayPlacementOpportunityStart = Self(0x3A)
    public static let distributorOverlayPlacementOpportunityEnd = Self(0x3B)
    public static let providerPromoStart = Self(0x3C)
    public static let providerPromoEnd = Self(0x3D)
    public static let distributorPromoStart = Self(0x3E)
    public static let distributorPromoEnd = Self(0x3F)
    public static let unscheduledEventStart = Self(0x40)
    public static let unscheduledEventEnd = Self(0x41)
    public static let alternateContentOpportunityStart = Self(0x42)
    public static let alternateContentOpportunityEnd = Self(0x43)
    public static let providerAdBlockStart = Self(0x44)
    public static let providerAdBlockEnd = Self(0x45)
    public static let distributorAdBlockStart = Self(0x46)
    public static let distributorAdBlockEnd = Self(0x47)
    public static let networkStart = Self(0x50)
    public static let networkEnd = Self(0x51)

    static let names: [UInt8: String] = [
        0x00: "Not Indicated", 0x01: "Content Identification", 0x02: "Call Ad Server",
        0x10: "Program Start", 0x11: "Program End", 0x12: "Program Early Termination",
        0x13: "Program Breakaway", 0x14: "Program Resumption", 0x15: "Program Runover Planned",
        0x16: "Program Runover Unplanned", 0x17: "Program Overlap Start",
        0x18: "Program Blackout Override", 0x19: "Program Join",
        0x20: "Chapter Start", 0x21: "Chapter End", 0x22: "Break Start", 0x23: "Break End",
        0x24: "Opening Credit Start", 0x25: "Opening Credit End",
        0x26: "Closing Credit Start", 0x27: "Closing Credit End",
        0x30: "Provider Advertisement Start", 0x31: "Provider Advertisement End",
        0x32: "Distributor Advertisement Start", 0x33: "Distributor Advertisement End",
        0x34: "Provider Placement Opportunity Start", 0x35: "Provider Placement Opportunity End",
        0x36: "Distributor Placement Opportunity Start", 0x37: "Distributor Placement Opportunity End",
        0x38: "Provider Overlay Placement Opportunity Start",
        0x39: "Provider Overlay Placement Opportunity End",
        0x3A: "Distributor Overlay Placement Opportunity Start",
        0x3B: "Distributor Overlay Placement Opportunity End",
        0x3C: "Provider Promo Start", 0x3D: "Provider Promo End",
        0x3E: "Distributor Promo Start", 0x3F: "Distributor Promo End",
        0x40: "Unscheduled Event Start", 0x41: "Unscheduled Event End",
        0x42: "Alternate Content Opportunity Start", 0x43: "Alternate Content Opportunity End",
        0x44: "Provider Ad Block Start", 0x45: "Provider Ad Block End",
        0x46: "Distributor Ad Block Start", 0x47: "Distributor Ad Block End",
        0x50: "Network Start", 0x51: "Network End",
    ]

    /// The name in the specification, nil for values it does not define.
    public var name: String? { Self.names[rawValue] }

    public var description: String {
        let hex = "0x" + SCTE35Text.hex([rawValue]).uppercased()
        return name.map { "\($0) (\(hex))" } ?? "Unknown (\(hex))"
    }

    /// Provider/distributor advertisement or (non-overlay) placement opportunity start.
    public var isAdStart: Bool {
        [0x30, 0x32, 0x34, 0x36].contains(rawValue)
    }

    /// Provider/distributor advertisement or (non-overlay) placement opportunity end.
    public var isAdEnd: Bool {
        [0x31, 0x33, 0x35, 0x37].contains(rawValue)
    }

    /// Types that may carry sub_segment_num / sub_segments_expected (SCTE 35 2023r1 Table 20:
    /// provider and distributor advertisements, placement opportunities and overlay placement
    /// opportunities, each start). Comcast's scte35-go and threefive read the same list.
    public var mayCarrySubSegments: Bool {
        [0x30, 0x32, 0x34, 0x36, 0x38, 0x3A, 0x44, 0x46].contains(rawValue)
    }
}

/// `segmentation_upid_type` (SCTE 35 2022 Table 22).
public struct SegmentationUPIDType: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let notUsed = Self(0x00)
    public static let userDefined = Self(0x01)
    public static let isci = Self(0x02)
    public static let adID = Self(0x03)
    public static let umid = Self(0x04)
    public static let isanDeprecated = Self(0x05)
    public static let isan = Self(0x06)
    public static let tid = Self(0x07)
    public static let ti = Self(0x08)
    public static let adi = Self(0x09)
    public static let eidr = Self(0x0A)
    public static let atscContentIdentifier = Self(0x0B)
    public static let mpu = Self(0x0C)
    public static let mid = Self(0x0D)
    public static let adsInformation = Self(0x0E)
    public static let uri = Self(0x0F)
    public static let uuid = Self(0x10)
    public static let scr = Self(0x11)

    static let names: [UInt8: String] = [
        0x00: "Not Used", 0x01: "User Defined", 0x02: "ISCI", 0x03: "Ad-ID", 0x04: "UMID",
        0x05: "ISAN (deprecated)", 0x06: "ISAN", 0x07: "TID", 0x08: "TI", 0x09: "ADI", 0x0A: "EIDR",
        0x0B: "ATSC Content Identifier", 0x0C: "MPU", 0x0D: "MID", 0x0E: "ADS Information",
        0x0F: "URI", 0x10: "UUID", 0x11: "SCR",
    ]

    public var name: String? { Self.names[rawValue] }

    /// Types whose value is defined as ASCII text.
    public var isText: Bool { [0x02, 0x03, 0x07, 0x09, 0x0E, 0x0F, 0x11].contains(rawValue) }
}
