import type { Product, SearchCatalogOutput } from '@catalogkit/core';
import { commissionPercentage } from '@catalogkit/core/schemas';
import { formatMinorUnits } from '@catalogkit/core/tools';
import { usePageConfig } from './page-config.js';
import { imageOf, inStock, offerOf, shopperOrder } from './shop-view.js';

function ProductImage({ product }: { product: Product }) {
  const image = imageOf(product, offerOf(product));
  if (!image) return <div className="product-image placeholder" aria-hidden="true" />;
  // Fixed 4:3 box (width/height and CSS aspect-ratio), so cards do not jump as images load.
  return (
    <img
      className="product-image"
      src={image.url}
      alt={image.alt}
      width={400}
      height={300}
      loading="lazy"
      decoding="async"
    />
  );
}

function ProductCard({ product, showCommission }: { product: Product; showCommission: boolean }) {
  const offer = offerOf(product);
  if (!offer) return null;
  const available = inStock(product);
  const commission = showCommission ? commissionPercentage(offer.placement) : undefined;
  const onSale =
    offer.price && offer.list_price && offer.list_price.amount > offer.price.amount
      ? offer.list_price
      : undefined;
  const retailer = offer.seller?.name ?? 'the retailer';
  return (
    <article
      className={available ? 'product-card' : 'product-card sold-out'}
      data-product-id={product.id}
      data-in-stock={available}
    >
      <ProductImage product={product} />
      <h3 className="product-title">{product.title}</h3>
      <p className="product-retailer">{retailer}</p>
      <div className="product-meta">
        {offer.price ? (
          <span className="product-price">
            {formatMinorUnits(offer.price)}
            {onSale ? <s className="product-list-price">{formatMinorUnits(onSale)}</s> : null}
          </span>
        ) : null}
        {commission !== undefined ? (
          <span className="commission" title="Commission the retailer pays on this sale">
            {commission}% commission
          </span>
        ) : null}
      </div>
      {available && offer.url ? (
        // The buy link exactly as the tool returned it: rewriting it would lose the commission.
        <a className="buy" href={offer.url} target="_blank" rel="sponsored noopener noreferrer">
          Buy at {retailer}
        </a>
      ) : null}
      {available ? null : (
        <button type="button" className="buy sold-out" disabled>
          Out of stock
        </button>
      )}
    </article>
  );
}

/** The products of one catalog search, as cards: in-stock first, out-of-stock last. */
export function ProductCards({ output }: { output: SearchCatalogOutput }) {
  const { showCommission } = usePageConfig();
  const { products } = output.response;
  if (products.length === 0) return <p className="tool-note">No products matched.</p>;
  return (
    <div className="product-grid">
      {shopperOrder(products).map((product) => (
        <ProductCard key={product.id} product={product} showCommission={showCommission} />
      ))}
    </div>
  );
}
