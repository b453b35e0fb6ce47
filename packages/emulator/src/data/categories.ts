/** A product group: categories, brands and niche retailers share one. */
export type Vertical =
  | 'footwear'
  | 'apparel'
  | 'outdoor'
  | 'sports'
  | 'accessories'
  | 'beauty'
  | 'electronics'
  | 'home'
  | 'family'
  | 'pets'
  | 'pantry';

/** A category definition: its slug is what `category_ids` takes. */
export interface CategoryDefinition {
  slug: string;
  name: string;
  vertical: Vertical;
  /** Product nouns used in titles ("Trail Running Shoe"). */
  nouns: readonly string[];
  /** Typical price range in USD minor units. */
  priceMin: number;
  priceMax: number;
  /** Relative share of generated products. */
  weight: number;
  /** Unsearchable categories exist but give 422 in website search. */
  searchable: boolean;
}

const c = (
  slug: string,
  name: string,
  vertical: Vertical,
  nouns: readonly string[],
  [priceMin, priceMax]: readonly [number, number],
  weight = 1,
  searchable = true,
): CategoryDefinition => ({ slug, name, vertical, nouns, priceMin, priceMax, weight, searchable });

/**
 * The category catalog. Running and trail running shoes are over-represented on purpose:
 * the demo shops for "trail running shoes under $120".
 */
export const CATEGORY_DEFINITIONS: readonly CategoryDefinition[] = [
  c(
    'running-shoes',
    'Running Shoes',
    'footwear',
    ['Running Shoe', 'Road Running Shoe', 'Racing Flat'],
    [6000, 24000],
    9,
  ),
  c(
    'trail-running-shoes',
    'Trail Running Shoes',
    'footwear',
    ['Trail Running Shoe', 'Trail Runner', 'Mountain Running Shoe'],
    [7000, 22000],
    10,
  ),
  c(
    'hiking-boots',
    'Hiking Boots',
    'footwear',
    ['Hiking Boot', 'Hiking Shoe', 'Backpacking Boot'],
    [8000, 30000],
    3,
  ),
  c(
    'sneakers',
    'Sneakers',
    'footwear',
    ['Sneaker', 'Court Shoe', 'Low-Top Sneaker'],
    [5000, 18000],
    3,
  ),
  c('sandals', 'Sandals', 'footwear', ['Sandal', 'Slide', 'Recovery Sandal'], [2500, 9000]),
  c(
    'running-apparel',
    'Running Apparel',
    'apparel',
    ['Running Shorts', 'Running Tee', 'Running Tights'],
    [2500, 12000],
    2,
  ),
  c(
    'outdoor-jackets',
    'Outdoor Jackets',
    'outdoor',
    ['Rain Jacket', 'Down Jacket', 'Wind Shell'],
    [8000, 45000],
    2,
  ),
  c(
    'backpacks',
    'Backpacks',
    'outdoor',
    ['Daypack', 'Hydration Vest', 'Trail Pack'],
    [4000, 25000],
    2,
  ),
  c(
    'camping-gear',
    'Camping Gear',
    'outdoor',
    ['Tent', 'Sleeping Bag', 'Camp Stove'],
    [3000, 60000],
  ),
  c('cycling', 'Cycling', 'sports', ['Cycling Jersey', 'Bike Helmet', 'Bike Light'], [2000, 30000]),
  c('yoga', 'Yoga', 'sports', ['Yoga Mat', 'Yoga Block', 'Yoga Leggings'], [1500, 15000]),
  c(
    'fitness-equipment',
    'Fitness Equipment',
    'sports',
    ['Kettlebell', 'Resistance Band Set', 'Adjustable Dumbbell'],
    [1500, 50000],
  ),
  c('swimwear', 'Swimwear', 'sports', ['Swim Suit', 'Swim Goggles', 'Board Shorts'], [1500, 12000]),
  c(
    'womens-dresses',
    "Women's Dresses",
    'apparel',
    ['Midi Dress', 'Wrap Dress', 'Maxi Dress'],
    [3000, 25000],
  ),
  c(
    'mens-shirts',
    "Men's Shirts",
    'apparel',
    ['Oxford Shirt', 'Linen Shirt', 'Flannel Shirt'],
    [2500, 15000],
  ),
  c('jeans', 'Jeans', 'apparel', ['Slim Jeans', 'Straight Jeans', 'Relaxed Jeans'], [4000, 22000]),
  c(
    'watches',
    'Watches',
    'accessories',
    ['Field Watch', 'GPS Running Watch', 'Dive Watch'],
    [5000, 90000],
    2,
  ),
  c(
    'jewelry',
    'Jewelry',
    'accessories',
    ['Pendant Necklace', 'Hoop Earrings', 'Signet Ring'],
    [2000, 80000],
  ),
  c(
    'sunglasses',
    'Sunglasses',
    'accessories',
    ['Sport Sunglasses', 'Aviator Sunglasses', 'Polarized Sunglasses'],
    [3000, 30000],
  ),
  c(
    'handbags',
    'Handbags',
    'accessories',
    ['Tote Bag', 'Crossbody Bag', 'Shoulder Bag'],
    [4000, 60000],
  ),
  c(
    'skincare',
    'Skincare',
    'beauty',
    ['Face Serum', 'Moisturizer', 'Sunscreen SPF 50'],
    [1200, 12000],
  ),
  c('makeup', 'Makeup', 'beauty', ['Lipstick', 'Mascara', 'Foundation'], [800, 6000]),
  c(
    'fragrance',
    'Fragrance',
    'beauty',
    ['Eau de Parfum', 'Eau de Toilette', 'Body Mist'],
    [2500, 20000],
  ),
  c('haircare', 'Haircare', 'beauty', ['Shampoo', 'Hair Mask', 'Hair Dryer'], [1000, 40000]),
  c(
    'headphones',
    'Headphones',
    'electronics',
    ['Wireless Earbuds', 'Noise Cancelling Headphones', 'Sport Earbuds'],
    [3000, 45000],
    2,
  ),
  c(
    'laptops',
    'Laptops',
    'electronics',
    ['Ultrabook', 'Gaming Laptop', '2-in-1 Laptop'],
    [40000, 300000],
  ),
  c(
    'smartphones',
    'Smartphones',
    'electronics',
    ['Smartphone', 'Rugged Phone', 'Phone Case'],
    [1500, 140000],
  ),
  c(
    'cameras',
    'Cameras',
    'electronics',
    ['Mirrorless Camera', 'Action Camera', 'Camera Lens'],
    [15000, 250000],
  ),
  c(
    'smart-home',
    'Smart Home',
    'electronics',
    ['Smart Speaker', 'Video Doorbell', 'Smart Plug'],
    [1500, 30000],
  ),
  c(
    'kitchen-appliances',
    'Kitchen Appliances',
    'home',
    ['Espresso Machine', 'Blender', 'Air Fryer'],
    [3000, 90000],
  ),
  c(
    'cookware',
    'Cookware',
    'home',
    ['Cast Iron Skillet', 'Dutch Oven', 'Chef Knife'],
    [2000, 40000],
  ),
  c('furniture', 'Furniture', 'home', ['Desk Chair', 'Bookshelf', 'Coffee Table'], [5000, 150000]),
  c('bedding', 'Bedding', 'home', ['Duvet Cover', 'Linen Sheet Set', 'Pillow'], [2500, 30000]),
  c(
    'home-decor',
    'Home Decor',
    'home',
    ['Table Lamp', 'Wall Mirror', 'Throw Blanket'],
    [1500, 40000],
  ),
  c('toys', 'Toys', 'family', ['Building Set', 'Puzzle', 'Plush Toy'], [1000, 15000]),
  c('baby', 'Baby', 'family', ['Stroller', 'Baby Carrier', 'Play Mat'], [2000, 90000]),
  c('pet-supplies', 'Pet Supplies', 'pets', ['Dog Harness', 'Cat Tree', 'Pet Bed'], [1000, 20000]),
  c('books', 'Books', 'pantry', ['Trail Guide', 'Cookbook', 'Novel'], [900, 6000]),
  c(
    'coffee',
    'Coffee',
    'pantry',
    ['Whole Bean Coffee', 'Pour-Over Kit', 'Coffee Grinder'],
    [1200, 35000],
  ),
  c(
    'gaming',
    'Gaming',
    'electronics',
    ['Game Controller', 'Gaming Headset', 'Gaming Mouse'],
    [2500, 25000],
  ),
  // Exist in the taxonomy but are not available for website search (422 there).
  c('gift-cards', 'Gift Cards', 'family', ['Gift Card'], [2500, 20000], 0.2, false),
  c(
    'prescription-drugs',
    'Prescription Drugs',
    'beauty',
    ['Prescription Refill'],
    [1000, 5000],
    0.1,
    false,
  ),
];

/** Every vertical, for retailers and brands. */
export const VERTICALS: readonly Vertical[] = [
  'footwear',
  'apparel',
  'outdoor',
  'sports',
  'accessories',
  'beauty',
  'electronics',
  'home',
  'family',
  'pets',
  'pantry',
];
